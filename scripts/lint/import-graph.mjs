// The app's import graph, read from the source text (docs/architecture.md, "Folders"): every
// relative import of every product file (`import`, `export … from`, `import()`, type-only ones
// too), resolved to the file it names. Used by the lint rule that keeps subsystems behind their
// `index.ts` (subsystem-entry.js) and by the check that finds circles (test/lint/no-circles.test.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Where the app's own code lives (tests, configs and generated files are not product code). */
export const PRODUCT_ROOTS = ['electron', 'src', 'scripts'];
const SOURCE = /\.(ts|mts|mjs|js|svelte)$/;
const SKIP = new Set(['node_modules', 'out', 'dist']);

/** How an import specifier may name a file: as written, with an extension, or a folder's index. */
const CANDIDATES = ['', '.ts', '.mjs', '.js', '.svelte', '/index.ts', '/index.mjs', '/index.js'];

/** The file a relative specifier names from `fromFile`, or null when none exists. */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  for (const suffix of CANDIDATES) {
    const candidate = base + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const STATIC = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?(['"])([^'"]+)\2/g;
const DYNAMIC = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;

/** The import specifiers of one file's text (for a .svelte file, of its script blocks). */
export function importsOf(text, fileName = '') {
  const code = fileName.endsWith('.svelte')
    ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n')
    : text;
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = [];
  for (const match of withoutComments.matchAll(STATIC)) {
    found.push({ specifier: match[3], typeOnly: Boolean(match[1]), dynamic: false });
  }
  for (const match of withoutComments.matchAll(DYNAMIC)) {
    found.push({ specifier: match[2], typeOnly: false, dynamic: true });
  }
  return found;
}

function walk(dir, files) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, files);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Every product file under `root`, and its resolved relative imports (paths relative to root, with `/`). */
export function readImportGraph(root, roots = PRODUCT_ROOTS) {
  const toKey = (path) => relative(root, path).split(sep).join('/');
  const files = roots.flatMap((folder) => (existsSync(join(root, folder)) ? walk(join(root, folder), []) : []));
  const edges = [];
  for (const file of files) {
    for (const found of importsOf(readFileSync(file, 'utf8'), file)) {
      const target = resolveImport(file, found.specifier);
      if (target) edges.push({ from: toKey(file), to: toKey(target), ...found });
    }
  }
  return { files: files.map(toKey), edges };
}

/** The circles of a graph: each strongly connected set of two or more files (or a file importing itself). */
export function findCircles({ files, edges }) {
  const next = new Map(files.map((file) => [file, []]));
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the call stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, position] = frame;
      if (position === 0) {
        index.set(node, counter);
        low.set(node, counter);
        counter += 1;
        stack.push(node);
        onStack.add(node);
      }
      const targets = next.get(node) ?? [];
      if (position < targets.length) {
        frame[1] += 1;
        const target = targets[position];
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const members = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          members.push(member);
        } while (member !== node);
        const selfLoop = members.length === 1 && targets.includes(node);
        if (members.length > 1 || selfLoop) circles.push(members.sort());
      }
    }
  }
  return circles;
}
