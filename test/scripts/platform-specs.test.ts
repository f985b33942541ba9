/**
 * The Electron projects leave out, by the config, what cannot run on a system, with the reason printed
 * (test/e2e/support/platform-specs.ts): then every listed test must run on CI (scripts/electron-e2e.mjs).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_SPECS, platformSpecsLeftOut } from '../e2e/support/platform-specs';

const E2E = resolve(import.meta.dirname, '../e2e');

describe('specs left out of the Electron projects by system', () => {
  it('names specs that exist, each with a reason and at least one system', () => {
    for (const [file, spec] of Object.entries(PLATFORM_SPECS)) {
      expect(existsSync(join(E2E, file)), file).toBe(true);
      expect(spec.only.length, file).toBeGreaterThan(0);
      expect(spec.reason.length, file).toBeGreaterThan(20);
    }
  });

  it('leaves the nginx gateway spec out on macOS and Windows, and the asar integrity spec on Linux, saying why', () => {
    const linux = platformSpecsLeftOut('linux');
    expect(linux.files).toEqual(['packaged/packaged-asar.spec.ts']);
    expect(linux.lines[0]).toMatch(/left out on linux: Electron checks asar integrity on macOS .* and Windows/);
    const mac = platformSpecsLeftOut('darwin');
    expect(mac.files).toEqual(['gateway-wait.spec.ts']);
    expect(mac.lines[0]).toMatch(/^\[electron e2e\] gateway-wait\.spec\.ts left out on darwin: .*nginx/);
    expect(platformSpecsLeftOut('win32').files).toEqual(mac.files);
  });
});
