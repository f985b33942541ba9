/**
 * electron-builder.yml, read as electron-builder reads it: the fuses (issue: RunAsNode,
 * NODE_OPTIONS and the inspect flags off; embedded asar integrity and asar-only on; no extra
 * file:// privileges), identity, what is packed, native modules, and each OS's targets.
 * package.test.ts then checks the package electron-builder really makes from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a YAML document, checked field by field below
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('electron-builder.yml', () => {
  it('sets exactly the fuses the app needs', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      resetAdHocDarwinSignature: true,
    });
  });

  it('publishes to a reserved address never fetched: update files are written, no feed is guessed from the git remote', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: 'https://updates.invalid/adoption-desk/' });
    // The app never reads the app-update.yml made from it (electron/main/updates.ts writes its own config).
    const glue = readFileSync(join(ROOT, 'electron/main/updates.ts'), 'utf8');
    expect(glue).toMatch(/autoUpdater\.updateConfigPath = configPath/);
    expect(glue).not.toMatch(/setFeedURL|app-update\.yml'\)/);
  });

  it('names the app, and package.json gives the author an email (a deb needs it)', () => {
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Adoption Desk');
    expect(pkg.productName).toBe('Adoption Desk');
    expect(pkg.author).toMatchObject({ name: expect.any(String), email: expect.stringMatching(/^[^@\s]+@[^@\s]+$/) });
    expect(pkg.main).toBe('./out/main/index.js');
  });

  it('packs only what runs, in an asar, with native modules unpacked and profiles.json as a resource', () => {
    expect(config.asar).toBe(true);
    expect(config.files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/**', 'out/preload/**', 'out/renderer/**', '!**/*.map']),
    );
    expect(config.files.filter((f: string) => /^(src|test|electron|scripts)\b/.test(f))).toEqual([]);
    expect(config.asarUnpack).toEqual(['**/*.node']);
    expect(config.extraResources).toEqual([{ from: 'resources/profiles.json', to: 'profiles.json' }]);
  });

  it('rebuilds native modules per target from source, never ships the build machine’s', () => {
    expect(config.npmRebuild).not.toBe(false);
    expect(config.buildDependenciesFromSource).toBe(true);
  });

  it('Linux: AppImage and deb, the deb depending on libsecret and making chrome-sandbox setuid', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.deb.depends).toContain('libsecret-1-0');
    const script = readFileSync(join(ROOT, config.deb.afterInstall), 'utf8');
    const sandbox = script.split('\n').filter((line) => line.includes('chrome-sandbox'));
    expect(sandbox.some((line) => /^chmod 4755 '\/opt\/\$\{sanitizedProductName\}\/chrome-sandbox'/.test(line))).toBe(
      true,
    );
    expect(sandbox.some((line) => /chmod 0?755 /.test(line))).toBe(false);
    expect(existsSync(join(ROOT, config.linux.icon, '512x512.png'))).toBe(true);
  });

  it('macOS: dmg and zip (Squirrel.Mac updates from it) for arm64 and x64, hardened runtime, allow-jit entitlements, notarised from the environment', () => {
    expect(config.mac.target).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ]);
    expect(config.mac.hardenedRuntime).toBe(true);
    for (const key of ['entitlements', 'entitlementsInherit']) {
      const plist = readFileSync(join(ROOT, config.mac[key]), 'utf8');
      expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
      expect(plist).not.toMatch(/disable-library-validation|allow-dyld-environment-variables/);
    }
    expect(config.mac.notarize).toBe(true);
    expect(existsSync(join(ROOT, config.mac.icon))).toBe(true);
  });

  it('Windows: a per-user NSIS installer for staff and a per-machine MSI for IT', () => {
    expect(config.win.target).toEqual(['nsis', 'msi']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false });
    expect(config.msi).toMatchObject({ perMachine: true });
    expect(existsSync(join(ROOT, config.win.icon))).toBe(true);
  });

  it('holds no credential: signing and notarisation come from the environment only', () => {
    const text = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    const keys = JSON.stringify(config);
    expect(keys).not.toMatch(
      /"(password|appleId|appleIdPassword|teamId|certificateFile|certificatePassword|cscLink|cscKeyPassword)"/i,
    );
    expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
  });
});
