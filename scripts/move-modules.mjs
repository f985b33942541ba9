#!/usr/bin/env node
// Moves modules and rewrites the relative import paths that name them (issue 32's renames).
//
//   node scripts/move-modules.mjs <moves.json> --mv      git mv each file, then stop (a rename-only commit)
//   node scripts/move-modules.mjs <moves.json>           rewrite every import the moves broke
//
// <moves.json> is `[["old/path.ts", "new/path.ts"], …]`, paths from the repository's root. The rewrite
// reads a moved file's imports from where it was, and any other file's import that no longer resolves
// from the old layout, so running it again after merging a branch that still names the old paths
// fixes that branch's imports too. Only the path between the quotes changes; nothing is reformatted.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const [movesFile, flag] = process.argv.slice(2);
if (!movesFile) throw new Error('usage: node scripts/move-modules.mjs <moves.json> [--mv]');
const moves = JSON.parse(readFileSync(movesFile, 'utf8')).map(([from, to]) => [join(root, from), join(root, to)]);

if (flag === '--mv') {
  for (const [from, to] of moves) {
    execFileSync('mkdir', ['-p', dirname(to)]);
    execFileSync('git', ['mv', relative(root, from), relative(root, to)], { cwd: root, stdio: 'inherit' });
  }
  process.exit(0);
}

const toNew = new Map(moves);
const toOld = new Map(moves.map(([from, to]) => [to, from]));
const isFile = (path) => existsSync(path) && statSync(path).isFile();
/** Whether `path` was a file before the moves. */
const wasFile = (path) => toNew.has(path) || (isFile(path) && !toOld.has(path));
const SUFFIXES = ['', '.ts', '.svelte.ts', '.svelte', '.js', '.mjs', '/index.ts'];
/** The file a specifier names from `dir` and the suffix added to reach it. */
function resolveIn(dir, specifier, exists) {
  for (const suffix of SUFFIXES) {
    const path = resolve(dir, specifier + suffix);
    if (exists(path)) return { path, suffix };
  }
  return null;
}

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root })
  .toString()
  .split('\n')
  .filter((file) => /\.(ts|mts|svelte|js|mjs|cjs)$/.test(file) && !file.startsWith('node_modules/'));
const SPECIFIER =
  /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*|\bvi\.importActual(?:<[^>]*>)?\(\s*|\brequire\(\s*)(['"])(\.\.?\/[^'"]*)\2/g;
let changed = 0;
for (const file of files) {
  const path = join(root, file);
  if (!isFile(path)) continue;
  const oldPath = toOld.get(path) ?? path;
  const moved = oldPath !== path;
  const source = readFileSync(path, 'utf8');
  const rewritten = source.replace(SPECIFIER, (whole, head, quote, specifier) => {
    if (!moved && resolveIn(dirname(path), specifier, isFile)) return whole;
    const found = resolveIn(dirname(oldPath), specifier, wasFile);
    if (!found) return whole;
    const target = toNew.get(found.path) ?? found.path;
    if (target === found.path && !moved) return whole;
    const named = target.slice(0, target.length - found.suffix.length);
    let next = relative(dirname(path), named).split(sep).join('/');
    if (!next.startsWith('.')) next = `./${next}`;
    return `${head}${quote}${next}${quote}`;
  });
  if (rewritten !== source) {
    writeFileSync(path, rewritten);
    changed += 1;
  }
}
console.log(`${changed} files rewritten`);
