/**
 * `npm run package:check`: electron-builder packs the built app (out/, `npm run build` first)
 * with the repository's own electron-builder.yml, `--linux --dir` and `--mac --dir --x64`,
 * against stand-in Electron distributions that carry Electron's real fuse wire
 * (scripts/packaging/stand-in-electron.ts): no download. Then the package is read back:
 * fuses with @electron/fuses, app.asar with @electron/asar, the recorded asar integrity hash.
 * Overridden for this machine only: `npmRebuild=false` (a rebuild downloads Electron's headers;
 * here the target is this machine's own OS and architecture) and `mac.notarize=false`.
 */
import { builtinModules } from 'node:module';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { getRawHeader, listPackage } from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { POLICY_WATCHER_ADDON } from '../../electron/main/policy-store';
import { makeStandInElectronDist, makeStandInElectronMacDist } from '../../scripts/packaging/stand-in-electron';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'adoption-package-'));
const LINUX = join(work, 'dist/linux-unpacked');
const MAC_APP = join(work, 'dist/mac/Adoption Desk.app');
const MAC_RESOURCES = join(MAC_APP, 'Contents/Resources');
// macOS's `codesign`, stood in for on this Linux machine: it records its arguments and a copy of the
// app as it was when called (so the test sees that the fuses were flipped before the re-signing).
const STAND_IN_BIN = join(work, 'bin');
const CODESIGN_LOG = join(work, 'codesign.log');
const AT_CODESIGN = join(work, 'at-codesign/Adoption Desk.app');
mkdirSync(STAND_IN_BIN);
writeFileSync(
  join(STAND_IN_BIN, 'codesign'),
  [
    '#!/bin/sh',
    `printf '%s\\n' "$*" >> '${CODESIGN_LOG}'`,
    'for app; do :; done',
    `mkdir -p '${dirname(AT_CODESIGN)}' && cp -R "$app" '${AT_CODESIGN}'`,
    '',
  ].join('\n'),
);
chmodSync(join(STAND_IN_BIN, 'codesign'), 0o755);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function electronBuilder(args: string[], dist: string): void {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/electron-builder/cli.js'),
      ...args,
      `-c.electronDist=${dist}`,
      '-c.npmRebuild=false',
      '-c.mac.notarize=false',
      `-c.directories.output=${join(work, 'dist')}`,
      '--publish=never',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false', PATH: `${STAND_IN_BIN}:${process.env.PATH}` },
    },
  );
  if (result.status !== 0)
    throw new Error(`electron-builder ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  console.log(`electron-builder ${args.join(' ')}: ${Date.now() - started} ms`);
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const sizeOf = (dir: string) => walk(dir).reduce((sum, file) => sum + statSync(file).size, 0);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'out/main/index.js'))) {
    const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('electron-vite build failed');
  }
  electronBuilder(['--linux', '--dir'], makeStandInElectronDist(join(work, 'electron-linux')));
  electronBuilder(['--mac', '--dir', '--x64'], makeStandInElectronMacDist(join(work, 'electron-mac')));
  const files = walk(LINUX);
  console.log(`linux-unpacked: ${files.length} files, ${mib(sizeOf(LINUX))}`);
  for (const file of files) console.log(`  ${relative(LINUX, file)}  ${statSync(file).size} B`);
  const entries = listPackage(join(LINUX, 'resources/app.asar'), { isPack: false });
  console.log(`resources/app.asar: ${entries.length} entries`);
  for (const entry of entries.filter((e) => !e.startsWith('/out/renderer/assets/'))) console.log(`  ${entry}`);
  console.log(`  /out/renderer/assets/…: ${entries.filter((e) => e.startsWith('/out/renderer/assets/')).length} files`);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the Linux package (electron-builder --linux --dir)', () => {
  const asar = () => join(LINUX, 'resources/app.asar');
  const entries = () => listPackage(asar(), { isPack: false });

  it('names the executable adoption-desk and keeps chrome-sandbox beside it', () => {
    expect(existsSync(join(LINUX, 'adoption-desk'))).toBe(true);
    expect(existsSync(join(LINUX, 'chrome-sandbox'))).toBe(true);
  });

  it('flipped the fuses in the Electron binary as electron-builder.yml says', async () => {
    for (const binary of [join(LINUX, 'adoption-desk'), MAC_APP]) {
      const wire = await getCurrentFuseWire(binary);
      expect(wire[FuseV1Options.RunAsNode], binary).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
      expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
      expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
      // Left at Electron's defaults.
      expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.WasmTrapHandlers]).toBe(FuseState.ENABLE);
    }
  });

  it('packs the built main, preload, renderer and package.json into app.asar', () => {
    const list = entries();
    for (const needed of [
      '/out/main/index.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/package.json',
    ]) {
      expect(list, needed).toContain(needed);
    }
    const built = walk(join(ROOT, 'out/renderer')).map((file) => `/${relative(ROOT, file)}`);
    expect(list).toEqual(expect.arrayContaining(built.filter((file) => !file.endsWith('.map'))));
  });

  it('packs nothing from test/, src/, the sources, source maps or dev dependencies', () => {
    const list = entries();
    const outside = list.filter((e) =>
      /^\/(test|src|electron|scripts|resources|docs|node_modules\/\.bin)(\/|$)/.test(e),
    );
    expect(outside).toEqual([]);
    expect(list.filter((e) => /\.(map|ts|tsx|svelte)$/.test(e))).toEqual([]);
    expect(list.filter((e) => /^\/out\/(e2e|bench)/.test(e))).toEqual([]);
    const modules = new Set(list.map((e) => /^\/node_modules\/((?:@[^/]+\/)?[^/@]+)/.exec(e)?.[1]).filter(Boolean));
    expect([...modules].sort()).toEqual(['@vscode/policy-watcher', 'keytar']);
    for (const dev of Object.keys(pkg.devDependencies)) expect(modules.has(dev), dev).toBe(false);
  });

  it('holds every module the built main process imports (no bundled dependency left out)', () => {
    const main = readFileSync(join(ROOT, 'out/main/index.js'), 'utf8');
    const imported = new Set(
      [...main.matchAll(/(?:from\s*|import\(\s*|require\(\s*)["']([^"'./][^"']*)["']/g)].map((m) => m[1]!),
    );
    // Node's own modules (undici, bundled, requires them without the node: prefix) and electron are not packages.
    const packageName = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*(\/[^"']*)?$/;
    const external = [...imported].filter(
      (name) =>
        !name.startsWith('node:') &&
        !builtinModules.includes(name.split('/')[0] ?? name) &&
        name !== 'electron' &&
        packageName.test(name),
    );
    expect(external).toEqual(['keytar']);
    for (const name of external) expect(entries()).toContain(`/node_modules/${name}/package.json`);
    // Loaded by a name the pattern above cannot see: the policy watcher's addon (electron/main/policy-store.ts).
    expect(main).toContain(JSON.stringify(POLICY_WATCHER_ADDON));
    expect(entries()).toContain(`/node_modules/${POLICY_WATCHER_ADDON}`);
  });

  it('unpacks keytar.node (native code cannot load from inside an asar)', () => {
    const unpacked = join(LINUX, 'resources/app.asar.unpacked/node_modules/keytar/build/Release/keytar.node');
    expect(readFileSync(unpacked).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46])); // ELF
    expect(readFileSync(unpacked)).toEqual(readFileSync(join(ROOT, 'node_modules/keytar/build/Release/keytar.node')));
    expect(pkg.dependencies.keytar).toBeDefined();
  });

  it('unpacks the policy watcher’s addon beside app.asar, as built for this system', () => {
    const addon = 'node_modules/@vscode/policy-watcher/build/Release/vscode-policy-watcher.node';
    const unpacked = join(LINUX, 'resources/app.asar.unpacked', addon);
    expect(readFileSync(unpacked)).toEqual(readFileSync(join(ROOT, addon)));
    expect(pkg.dependencies['@vscode/policy-watcher']).toBeDefined();
  });

  it('puts the organisation profiles.json in resources/', () => {
    expect(readFileSync(join(LINUX, 'resources/profiles.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'resources/profiles.json'), 'utf8'),
    );
    expect(readFileSync(join(MAC_RESOURCES, 'profiles.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'resources/profiles.json'), 'utf8'),
    );
  });

  it('keeps the package small (printed above, with the listing)', () => {
    const size = sizeOf(LINUX);
    console.log(`package without Electron: ${mib(size)} (app.asar ${mib(statSync(asar()).size)})`);
    expect(size).toBeLessThan(5 * 1024 * 1024);
  });
});

describe('the macOS package (electron-builder --mac --dir --x64)', () => {
  it('records the SHA-256 of app.asar’s header in Info.plist, which Electron checks at start', () => {
    const plist = readFileSync(join(MAC_APP, 'Contents/Info.plist'), 'utf8');
    const recorded =
      /<key>Resources\/app\.asar<\/key>\s*<dict>\s*<key>algorithm<\/key>\s*<string>SHA256<\/string>\s*<key>hash<\/key>\s*<string>([0-9a-f]{64})<\/string>/.exec(
        plist,
      )?.[1];
    const header = getRawHeader(join(MAC_RESOURCES, 'app.asar')).headerString;
    expect(recorded).toBe(createHash('sha256').update(header).digest('hex'));
    console.log(`asar integrity (macOS Info.plist ElectronAsarIntegrity): sha256 ${recorded}`);
  });

  it('re-signs the app ad hoc after flipping its fuses, so Apple silicon still starts an unsigned build', async () => {
    // @electron/fuses runs `codesign --sign - --force --preserve-metadata=… --deep <app>` (resetAdHocDarwinSignature).
    const calls = readFileSync(CODESIGN_LOG, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^--sign - --force .*--deep .*\/Adoption Desk\.app$/);
    const wire = await getCurrentFuseWire(AT_CODESIGN);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
  });

  it('names the app and its helpers after the product, with the hardened-runtime entitlements at hand', () => {
    const frameworks = readdirSync(join(MAC_APP, 'Contents/Frameworks'));
    expect(frameworks).toEqual(
      expect.arrayContaining(['Adoption Desk Helper.app', 'Adoption Desk Helper (Renderer).app']),
    );
    expect(readFileSync(join(MAC_APP, 'Contents/Info.plist'), 'utf8')).toMatch(
      /<key>CFBundleIdentifier<\/key>\s*<string>org\.adoption-desk\.app<\/string>/,
    );
    const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { mac: { entitlements: string } };
    expect(readFileSync(join(ROOT, config.mac.entitlements), 'utf8')).toMatch(/com\.apple\.security\.cs\.allow-jit/);
  });
});
