/**
 * No fixed name under the system's temporary folder (issue 25): a test, script or the app that
 * writes `join(tmpdir(), 'name')` collides with another user's or another run's file of that name
 * (a file left by a root run makes a normal user's run fail with EACCES). Everything goes into a
 * folder of its own from `mkdtemp`, removed afterwards. This reads every source file for a
 * temporary-folder path built from a literal anywhere but inside `mkdtemp(…)`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['electron', 'src', 'test', 'scripts'];
const SKIP = new Set(['node_modules', 'out', 'test-results', 'results']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs|js|svelte)$/.test(name) ? [path] : [];
  });
}

/** `tmpdir()` (or `os.tmpdir()`) joined with, or followed in a template by, a literal, outside `mkdtemp(…)`. */
const FIXED = /(mkdtemp(?:Sync)?\(\s*)?(?:join\(\s*(?:os\.)?tmpdir\(\)\s*,\s*['"`]|`\$\{(?:os\.)?tmpdir\(\)\}[/\\])/g;

export function fixedTempNames(text: string): number[] {
  const lines: number[] = [];
  for (const match of text.matchAll(FIXED)) {
    if (match[1]) continue;
    lines.push(text.slice(0, match.index).split('\n').length);
  }
  return lines;
}

describe('temporary files', () => {
  it('the check finds a fixed name and lets mkdtemp through', () => {
    expect(fixedTempNames("writeFileSync(join(tmpdir(), 'adoption-outside.txt'), 'x');")).toEqual([1]);
    expect(fixedTempNames('const log = `${tmpdir()}/adoption.log`;')).toEqual([1]);
    expect(fixedTempNames("const dir = mkdtempSync(join(tmpdir(), 'adoption-e2e-'));")).toEqual([]);
    expect(fixedTempNames("await mkdtemp(join(os.tmpdir(), 'adoption-'))")).toEqual([]);
  });

  it('nothing writes to a fixed name under the temporary folder', () => {
    // relative paths with `/` on every system (Windows gives `test\lint\…`)
    const inProject = (file: string) => relative(ROOT, file).split(sep).join('/');
    const found = sources(ROOT)
      .filter((file) => FOLDERS.some((folder) => inProject(file).startsWith(`${folder}/`)))
      // this file, whose examples are what it looks for
      .filter((file) => file !== import.meta.filename)
      .flatMap((file) => fixedTempNames(readFileSync(file, 'utf8')).map((line) => `${inProject(file)}:${line}`));
    expect(found).toEqual([]);
  });
});
