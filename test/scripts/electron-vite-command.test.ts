/**
 * electron-vite started the way Windows can start it too (issue 30, finding 5): Node with the
 * package's JS bin, resolved from its package.json "bin", never the `.bin` shim.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronViteCommand } from '../../scripts/lib/electron-vite';

const ROOT = resolve(import.meta.dirname, '../..');
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository folder whose node_modules/electron-vite/package.json says `bin`. */
function repoWith(bin: unknown): string {
  const root = mkdtempSync(join(tmpdir(), 'adoption-ev-'));
  folders.push(root);
  writeFileSync(join(root, 'package.json'), '{"name":"r"}');
  mkdirSync(join(root, 'node_modules', 'electron-vite'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'electron-vite', 'package.json'),
    JSON.stringify({ name: 'electron-vite', bin }),
  );
  return root;
}

describe('electronViteCommand', () => {
  it('runs Node itself with the JS file electron-vite’s package.json names as its bin', () => {
    const { command, args } = electronViteCommand(ROOT, ['build', '--outDir', 'out/x']);
    expect(command).toBe(process.execPath);
    expect(args).toEqual([
      join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
      'build',
      '--outDir',
      'out/x',
    ]);
    expect(args[0]).not.toContain(join('node_modules', '.bin'));
  });

  it('starts: the command answers --version with the installed electron-vite version', () => {
    const { command, args } = electronViteCommand(ROOT, ['--version']);
    const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  it('reads "bin" as a string or as a map, and says so when it names no electron-vite', () => {
    expect(electronViteCommand(repoWith('cli.js'), [], '/node').args[0]).toMatch(/electron-vite[\\/]cli\.js$/);
    expect(electronViteCommand(repoWith({ 'electron-vite': 'bin/ev.mjs' }), [], '/node').args[0]).toMatch(
      /electron-vite[\\/]bin[\\/]ev\.mjs$/,
    );
    expect(() => electronViteCommand(repoWith({ other: 'x.js' }), [])).toThrow('names no "electron-vite" bin');
  });

  it('is how the e2e global setup and `npm run demo` build the app (no `.bin/electron-vite` spawned)', () => {
    for (const file of ['test/e2e/support/global-setup.ts', 'scripts/demo.ts']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toContain('.bin/electron-vite');
      expect(text, file).toContain('electronViteCommand(');
    }
  });
});
