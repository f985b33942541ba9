/**
 * Specs of the Electron projects that cannot run on every system, with the reason. The config leaves
 * them out where they cannot run and prints why, so that on CI every test Playwright lists for a
 * project must run (scripts/electron-e2e.mjs): a test skipped at run time is a failure there.
 */
export interface PlatformSpec {
  /** The systems where the spec runs. */
  only: readonly NodeJS.Platform[];
  reason: string;
}

export const PLATFORM_SPECS: Readonly<Record<string, PlatformSpec>> = {
  'packaged/packaged-asar.spec.ts': {
    only: ['darwin', 'win32'],
    reason:
      'Electron checks asar integrity on macOS (16+) and Windows (30+) only (docs/tutorial/asar-integrity.md "Platform support")',
  },
  'gateway-wait.spec.ts': {
    only: ['linux'],
    reason:
      "the gateway in front of the service is Debian's nginx, installed on the Linux runner only; the app's code is the same on every system",
  },
};

/** The specs to leave out on `platform`, and a line for each saying why. */
export function platformSpecsLeftOut(platform: NodeJS.Platform): { files: string[]; lines: string[] } {
  const out = Object.entries(PLATFORM_SPECS).filter(([, spec]) => !spec.only.includes(platform));
  return {
    files: out.map(([file]) => file),
    lines: out.map(([file, spec]) => `[electron e2e] ${file} left out on ${platform}: ${spec.reason}`),
  };
}
