/**
 * The e2e suite's switch between the browser host and Electron (issue 21), checked here where
 * Electron cannot run: how the kind is chosen, how Electron would be started for a test, and
 * that every spec either runs in both projects or is listed as host-only with its reason (a spec
 * that reaches for the in-process core, the launch link or browser tabs must be listed).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  APP_KIND_ENV,
  appKindFrom,
  electronLaunchPlan,
  electronPresence,
  electronRequired,
  HOST_ONLY_SPECS,
  REQUIRE_ELECTRON_ENV,
  systemLanguageFor,
} from '../e2e/support/app-kind';
import { packagedAppPresence } from '../e2e/support/packaged-app';

const E2E = resolve(import.meta.dirname, '../e2e');
const specs = readdirSync(E2E).filter((name) => name.endsWith('.spec.ts'));

describe('which app the e2e suite opens', () => {
  it('the browser host unless the Electron config says so', () => {
    expect(appKindFrom({})).toBe('browser');
    expect(appKindFrom({ [APP_KIND_ENV]: '' })).toBe('browser');
    expect(appKindFrom({ [APP_KIND_ENV]: 'browser' })).toBe('browser');
    expect(appKindFrom({ [APP_KIND_ENV]: 'electron' })).toBe('electron');
    expect(() => appKindFrom({ [APP_KIND_ENV]: 'firefox' })).toThrow('must be "browser" or "electron"');
  });

  it('starts the build’s app folder in Electron with the test’s folder, address and keychain entry', () => {
    const launch = electronLaunchPlan({
      binary: { found: true, path: '/opt/electron/electron' },
      outDir: '/repo/out/e2e-abc',
      dataDir: '/tmp/adoption-e2e-data-1',
      localDemoUrl: 'http://127.0.0.1:4321/v1',
      keychainService: 'Adoption Desk e2e 1',
      env: { PATH: '/usr/bin', DISPLAY: ':99', ELECTRON_RUN_AS_NODE: '1', NODE_OPTIONS: '--require x.js' },
      platform: 'linux',
    });
    expect(launch).toEqual({
      ok: true,
      plan: {
        executablePath: '/opt/electron/electron',
        args: ['/repo/out/e2e-abc'],
        env: {
          PATH: '/usr/bin',
          DISPLAY: ':99',
          ADOPTION_USER_DATA_DIR: '/tmp/adoption-e2e-data-1',
          ADOPTION_LOCAL_DEMO_URL: 'http://127.0.0.1:4321/v1',
          ADOPTION_KEYCHAIN_SERVICE: 'Adoption Desk e2e 1',
          LANGUAGE: 'en_US',
        },
      },
    });
  });

  it('says why when the Electron binary is not installed', () => {
    const launch = electronLaunchPlan({
      binary: { found: false, reason: 'node_modules/electron/path.txt is missing' },
      outDir: '/o',
      dataDir: '/d',
      localDemoUrl: 'http://127.0.0.1:1/v1',
      keychainService: 's',
      env: {},
    });
    expect(launch).toEqual({
      ok: false,
      reason: 'Electron binary not installed: node_modules/electron/path.txt is missing',
    });
  });
});

describe('without Electron: skipped here, a failure where CI requires it (ADOPTION_REQUIRE_ELECTRON=1)', () => {
  const missing = { found: false as const, reason: '/repo/node_modules/electron/path.txt is missing' };

  it('reads the flag strictly: 1 or true requires, unset, empty, 0 or false does not, anything else is an error', () => {
    for (const value of ['1', 'true']) expect(electronRequired({ [REQUIRE_ELECTRON_ENV]: value })).toBe(true);
    for (const value of [undefined, '', '0', 'false'])
      expect(electronRequired({ [REQUIRE_ELECTRON_ENV]: value })).toBe(false);
    expect(() => electronRequired({ [REQUIRE_ELECTRON_ENV]: 'yes' })).toThrow(
      'ADOPTION_REQUIRE_ELECTRON must be 1 or 0, not "yes"',
    );
  });

  it('runs where the binary is found, flag or not', () => {
    const found = { found: true as const, path: '/opt/electron/electron' };
    expect(electronPresence(found, {})).toEqual({ kind: 'run' });
    expect(electronPresence(found, { [REQUIRE_ELECTRON_ENV]: '1' })).toEqual({ kind: 'run' });
  });

  it('skips with the reason when the binary is missing and nothing requires it', () => {
    expect(electronPresence(missing, {})).toEqual({
      kind: 'skip',
      reason: 'Electron binary not installed: /repo/node_modules/electron/path.txt is missing',
    });
  });

  it('fails with one line naming the missing binary when the flag requires it', () => {
    const presence = electronPresence(missing, { [REQUIRE_ELECTRON_ENV]: '1' });
    expect(presence).toEqual({
      kind: 'fail',
      message:
        'ADOPTION_REQUIRE_ELECTRON=1 but the Electron binary is not installed: /repo/node_modules/electron/path.txt is missing',
    });
    if (presence.kind === 'fail') expect(presence.message).not.toContain('\n');
  });

  it('the packaged project: runs with the executable, skips or fails naming ADOPTION_PACKAGED_APP without it', () => {
    const exists = (path: string) => path === '/dist/linux-unpacked/adoption-desk';
    expect(packagedAppPresence({ ADOPTION_PACKAGED_APP: '/dist/linux-unpacked/adoption-desk' }, exists)).toEqual({
      kind: 'run',
      executable: '/dist/linux-unpacked/adoption-desk',
    });
    expect(packagedAppPresence({}, exists)).toEqual({
      kind: 'skip',
      reason: 'ADOPTION_PACKAGED_APP is not set (the GitHub workflow sets it after electron-builder --dir)',
    });
    expect(packagedAppPresence({ [REQUIRE_ELECTRON_ENV]: '1' }, exists)).toEqual({
      kind: 'fail',
      message:
        'ADOPTION_REQUIRE_ELECTRON=1 but ADOPTION_PACKAGED_APP is not set (the GitHub workflow sets it after electron-builder --dir)',
    });
    expect(
      packagedAppPresence({ [REQUIRE_ELECTRON_ENV]: '1', ADOPTION_PACKAGED_APP: '/dist/gone/adoption-desk' }, exists),
    ).toEqual({
      kind: 'fail',
      message: 'ADOPTION_REQUIRE_ELECTRON=1 but ADOPTION_PACKAGED_APP=/dist/gone/adoption-desk does not exist',
    });
  });
});

describe('the test’s locale as the system language Electron reads (app.getPreferredSystemLanguages)', () => {
  it('Linux: set for the one process through LANGUAGE, which g_get_language_names reads first', () => {
    expect(systemLanguageFor('es-MX', 'linux')).toEqual({ kind: 'env', env: { LANGUAGE: 'es_MX' } });
    expect(systemLanguageFor('en-US', 'linux')).toEqual({ kind: 'env', env: { LANGUAGE: 'en_US' } });
    expect(systemLanguageFor('es', 'linux')).toEqual({ kind: 'env', env: { LANGUAGE: 'es' } });
  });

  it('macOS and Windows: the account’s setting, so main’s answer is replaced for the test', () => {
    expect(systemLanguageFor('es-ES', 'darwin')).toEqual({ kind: 'stub', languages: ['es-ES'] });
    expect(systemLanguageFor('es-MX', 'win32')).toEqual({ kind: 'stub', languages: ['es-MX'] });
  });

  it('the launch carries it: LANGUAGE on Linux (Playwright’s en-US unless the test says otherwise), nothing elsewhere', () => {
    const input = {
      binary: { found: true as const, path: '/opt/electron/electron' },
      outDir: '/repo/out/e2e-abc',
      dataDir: '/d',
      localDemoUrl: 'http://127.0.0.1:1/v1',
      keychainService: 's',
      env: { LANGUAGE: 'de_DE' },
    };
    const env = (launch: ReturnType<typeof electronLaunchPlan>) => (launch.ok ? launch.plan.env : null);
    expect(env(electronLaunchPlan({ ...input, platform: 'linux', locale: 'es-MX' }))).toMatchObject({
      LANGUAGE: 'es_MX',
    });
    expect(env(electronLaunchPlan({ ...input, platform: 'linux' }))).toMatchObject({ LANGUAGE: 'en_US' });
    expect(env(electronLaunchPlan({ ...input, platform: 'darwin', locale: 'es-MX' }))).toMatchObject({
      LANGUAGE: 'de_DE',
    });
  });
});

describe('the specs of the two projects', () => {
  const before = process.env[APP_KIND_ENV];
  afterAll(() => {
    if (before === undefined) delete process.env[APP_KIND_ENV];
    else process.env[APP_KIND_ENV] = before;
  });

  it('lists as host-only only specs that exist, each with its reason', () => {
    for (const [name, reason] of Object.entries(HOST_ONLY_SPECS)) {
      expect(specs, name).toContain(name);
      expect(reason.length, name).toBeGreaterThan(10);
    }
  });

  it('runs every other spec in Electron too, and a spec reaching for the browser host is host-only', () => {
    // (A route of the host's /api/ never fires in Electron, where the page calls main over IPC; Playwright's
    // `browser` is a Chromium beside the app, not the app.)
    const hostOnlyUse =
      /\.core\b|browserHost|launchUrl|coreOptions|newPage\(|\.context\(\)|\{ app, context \}|browser \}|startAppOnHost|startDevice\(|openOnHostProcess\(|[{ ]browser[,}]|route\('\*\*\/api\//;
    for (const name of specs) {
      const text = readFileSync(join(E2E, name), 'utf8');
      const listed = Object.hasOwn(HOST_ONLY_SPECS, name);
      if (hostOnlyUse.test(text)) expect(listed, `${name} uses the browser host`).toBe(true);
    }
    // What staff do every day runs in both: add, list, sync, keys, profiles.
    const both = specs.filter((name) => !Object.hasOwn(HOST_ONLY_SPECS, name));
    expect(both).toEqual(
      expect.arrayContaining([
        'add.spec.ts',
        'list.spec.ts',
        'list-after-sync.spec.ts',
        'sync-errors.spec.ts',
        'language.spec.ts',
        'key-prompts.spec.ts',
        'profiles.spec.ts',
        'import.spec.ts',
      ]),
    );
  });

  it('no spec of the Electron project opens the OS keychain from this Node (macOS would prompt: fixtures’ secretStore)', () => {
    const electronSpecs = [
      ...specs.filter((name) => !Object.hasOwn(HOST_ONLY_SPECS, name)),
      ...readdirSync(join(E2E, 'electron')).map((name) => join('electron', name)),
    ];
    for (const name of electronSpecs) {
      const text = readFileSync(join(E2E, name), 'utf8');
      expect(text, name).not.toMatch(/openOsKeychain|from 'keytar'|createKeytarSecretStore/);
    }
  });

  it('the Electron config ignores exactly the host-only specs, and the Chromium config the Electron-only ones', async () => {
    const electron = (await import('../../playwright.electron.config')).default;
    const chromium = (await import('../../playwright.config')).default;
    const project = electron.projects?.find((p) => p.name === 'electron');
    expect(project?.testMatch).toEqual(['*.spec.ts', 'electron/*.spec.ts']);
    expect(project?.testIgnore).toEqual(expect.arrayContaining(Object.keys(HOST_ONLY_SPECS)));
    expect(electron.projects?.find((p) => p.name === 'packaged')?.testMatch).toEqual(['packaged/*.spec.ts']);
    const browser = chromium.projects?.find((p) => p.name === 'chromium');
    expect(browser?.testIgnore).toEqual(expect.arrayContaining(['electron/**', 'packaged/**']));
  });
});
