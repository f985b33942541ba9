// No circles (docs/architecture.md, "Folders"): no product file reaches itself through its
// imports, type-only ones included. Through the subsystems' index.ts files, a circle between
// two folders is a circle between files, so this also keeps the folders in layers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM module of the lint tools, without types
import { findCircles, readImportGraph } from '../../scripts/lint/import-graph.mjs';

type Graph = { files: string[]; edges: Array<{ from: string; to: string }> };
const read = readImportGraph as (root: string, roots?: string[]) => Graph;
const circles = findCircles as (graph: Graph) => string[][];

// a path, not a URL's pathname (which reads /C:/… on Windows)
const root = resolve(import.meta.dirname, '../..');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'adoption-circles-'));
  folders.push(folder);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

describe('the import graph', () => {
  it('has no circle in electron/, src/ or scripts/', () => {
    const graph = read(root);
    expect(graph.files.length).toBeGreaterThan(150);
    expect(graph.edges.length).toBeGreaterThan(300);
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle between two folders through their index.ts, type-only imports included', () => {
    const folder = project({
      'src/a/index.ts': "export { a } from './a';\n",
      'src/a/a.ts': "import type { B } from '../b';\nexport const a = 1;\nexport type A = B;\n",
      'src/b/index.ts': "export { type B } from './b';\n",
      'src/b/b.ts': "import { a } from '../a';\nexport type B = typeof a;\n",
      'src/c/c.svelte': '<script lang="ts">\n  import { a } from \'../a\';\n</script>\n{a}\n',
    });
    expect(circles(read(folder, ['src']))).toEqual([['src/a/a.ts', 'src/a/index.ts', 'src/b/b.ts', 'src/b/index.ts']]);
  });

  it('finds a file that imports itself, and none in a tree of layers', () => {
    expect(
      circles(read(project({ 'src/self.ts': "export { x } from './self';\nexport const x = 1;\n" }), ['src'])),
    ).toEqual([['src/self.ts']]);
    const layered = project({
      'src/low.ts': 'export const low = 1;\n',
      'src/mid.ts': "import { low } from './low';\nexport const mid = () => import('./top');\nexport { low };\n",
      'src/top.ts': "import { low } from './low';\nexport const top = low;\n",
    });
    expect(circles(read(layered, ['src']))).toEqual([]);
  });
});
