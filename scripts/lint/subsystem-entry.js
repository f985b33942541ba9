// ESLint rule `adoption/subsystem-entry` (docs/architecture.md, "Folders"): a folder with an
// `index.ts` is a subsystem, and from outside it is imported only through that index. An import
// that names a file inside another subsystem (or inside a subsystem nested in one the importer
// is not part of) is an error that names the entry to use instead.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { resolveImport } from './import-graph.mjs';

/** The folders between `root` (excluded) and `file`'s folder that have an index.ts, outermost first. */
function subsystemsHolding(root, file) {
  const found = [];
  for (let dir = dirname(file); dir.startsWith(root + sep); dir = dirname(dir)) {
    if (existsSync(join(dir, 'index.ts'))) found.unshift(dir);
  }
  return found;
}

const inside = (file, folder) => file.startsWith(folder + sep);

/** @type {import('eslint').Rule.RuleModule} */
export const subsystemEntry = {
  meta: {
    type: 'problem',
    docs: { description: 'Import a subsystem (a folder with an index.ts) only through its index.ts from outside it.' },
    schema: [],
    messages: {
      throughEntry:
        "'{{specifier}}' reaches inside {{folder}}/: import it through its entry '{{entry}}' (docs/architecture.md, Folders).",
    },
  },
  create(context) {
    const root = resolve(context.cwd);
    const file = context.filename;
    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolveImport(file, source.value);
      if (!target) return;
      // the outermost subsystem that holds the target but not the importer
      const entryFolder = subsystemsHolding(root, target).find((folder) => !inside(file, folder));
      if (!entryFolder || target === join(entryFolder, 'index.ts')) return;
      let entry = relative(dirname(file), entryFolder).split(sep).join('/');
      if (!entry.startsWith('.')) entry = `./${entry}`;
      context.report({
        node,
        messageId: 'throughEntry',
        data: { specifier: source.value, folder: relative(root, entryFolder).split(sep).join('/'), entry },
      });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    };
  },
};

/**
 * ESLint rule `adoption/no-import-from`: the files it is set for may import nothing inside the
 * folders named in its options (resolved paths, so `../host` and `../../host/server` alike).
 * Options: `{ folders: ['electron/host', …], message: '…' }` (folders from the project root).
 * @type {import('eslint').Rule.RuleModule}
 */
export const noImportFrom = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports that resolve into the given folders.' },
    schema: [
      {
        type: 'object',
        properties: { folders: { type: 'array', items: { type: 'string' } }, message: { type: 'string' } },
        required: ['folders', 'message'],
        additionalProperties: false,
      },
    ],
    messages: { forbidden: "'{{specifier}}' is in {{folder}}/: {{message}}" },
  },
  create(context) {
    const root = resolve(context.cwd);
    const file = context.filename;
    const { folders, message } = context.options[0];
    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolveImport(file, source.value) ?? join(dirname(file), source.value);
      const folder = folders.find((name) => inside(target, join(root, name)) || target === join(root, name));
      if (folder) context.report({ node, messageId: 'forbidden', data: { specifier: source.value, folder, message } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    };
  },
};

export default { rules: { 'subsystem-entry': subsystemEntry, 'no-import-from': noImportFrom } };
