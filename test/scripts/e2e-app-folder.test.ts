/**
 * The e2e build is started by Electron as an app FOLDER, as `npm run demo` starts the repository
 * (`electron .`) and as the package is: global setup writes a package.json into the build folder
 * (the root's name, productName, version and type; main → ./main/index.js) and the resources the
 * unpackaged app reads from its app path (startup-settings.ts: <appPath>/resources/profiles.json).
 * Electron's default_app reads that package.json for app.name and the version and sets the app
 * path to the folder (default_app/main.ts loadApplicationPackage); started with the main file
 * instead, the app ran as "Electron" with out/e2e-…/main as its app path.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, findPackageJSON } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startupSettings } from '../../electron/main/startup-settings';
import { e2eAppPackage } from '../e2e/support/app-kind';
import { writeAppFolder } from '../e2e/support/global-setup';

const ROOT = resolve(import.meta.dirname, '../..');
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('the e2e build as an app folder', () => {
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, 'out', 'e2e-test-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  mkdirSync(join(outDir, 'main'));
  writeFileSync(join(outDir, 'main', 'index.js'), 'export {};\n');

  it('its package.json: the root’s name, productName, version and type, main pointing at the build', () => {
    expect(e2eAppPackage(rootPackage)).toEqual({
      name: 'adoption-desk',
      productName: 'Adoption Desk',
      version: rootPackage.version,
      type: 'module',
      main: './main/index.js',
      private: true,
    });
  });

  it('written into the build folder, with the resources startup-settings reads from the app path', () => {
    writeAppFolder(outDir, ROOT);
    expect(JSON.parse(readFileSync(join(outDir, 'package.json'), 'utf8'))).toEqual(e2eAppPackage(rootPackage));
    const settings = startupSettings({
      env: {},
      isPackaged: false,
      platform: process.platform,
      appPath: outDir,
      resourcesPath: '/unused',
    });
    expect(existsSync(settings.profilesFile)).toBe(true);
    expect(readFileSync(settings.profilesFile, 'utf8')).toBe(
      readFileSync(join(ROOT, 'resources', 'profiles.json'), 'utf8'),
    );
  });

  it('resolves as Electron resolves it: the folder to its main, an ES module, node_modules from the repository', () => {
    writeAppFolder(outDir, ROOT);
    const require = createRequire(join(ROOT, 'package.json'));
    // default_app: Module._resolveFilename(packagePath) (require.resolve of the folder).
    expect(require.resolve(outDir)).toBe(join(outDir, 'main', 'index.js'));
    const main = pathToFileURL(join(outDir, 'main', 'index.js'));
    expect(findPackageJSON(main)).toBe(join(outDir, 'package.json'));
    // The externalised native and runtime modules the built main process imports.
    for (const name of ['keytar', 'electron-updater', 'zod'])
      expect(createRequire(main).resolve(name)).toContain(join(ROOT, 'node_modules', name));
  });
});
