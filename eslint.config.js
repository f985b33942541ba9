// Lint rules, including the layer boundaries and the subsystem entries (docs/architecture.md,
// Layers and Folders): what runs where may import only what exists there, and a folder with an
// index.ts is imported only through it from outside. test/lint/boundaries.test.ts lints a
// forbidden import for each rule.
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';
import adoption from './scripts/lint/subsystem-entry.js';

const NODE_BUILTINS = {
  group: ['node:*', ...builtinModules, ...builtinModules.map((name) => `${name}/*`)],
  message: 'The renderer runs in a browser: no Node built-ins.',
};
const ELECTRON = {
  name: 'electron',
  message: 'Only electron/main and electron/preload may import electron (keep logic Electron-free).',
};
const DOM_ONLY = {
  group: ['dexie', 'svelte', 'svelte/*', '*.svelte', 'virtua', 'virtua/*'],
  message: 'Shared and core code runs in plain Node: no DOM-only modules.',
};
const RENDERER = {
  regex: '(^|/)src/(?!shared/)[^/]',
  message: 'Only the renderer may import the renderer: the rest shares src/shared with it.',
};
/**
 * The renderer and the contract use zod/mini through src/shared/basics/zod.ts, which sets its English
 * messages: classic zod brings its whole API into the window's start-up (docs/performance.md,
 * "Start-up weight"), and zod/mini imported elsewhere would parse with no messages set.
 */
const ZOD_DIRECT = {
  regex: '^zod(/|$)',
  message: "src/ imports z from src/shared/basics/zod.ts (zod/mini with its messages set), never 'zod' itself.",
};
/**
 * The window's components and stores take `t` and the formatters from src/language, which redraws them when
 * the language changes; src/shared/i18n's own are for the core and the contract (docs/i18n.md).
 */
const SHARED_T = {
  regex: '^(\\.\\.?/)+shared/i18n$',
  importNames: ['t', 'formatNumber', 'formatDateTime', 'formatTime', 'formatList'],
  message: 'In the window, import t and the formatters from src/language (redrawn when the language changes).',
};
/** The app's Electron-side code, by relative path (`../../electron/core/…`). */
const ELECTRON_CODE = {
  regex: '^(\\.\\.?/)+electron/',
  message:
    'The renderer reaches the core only through the app API (src/shared/app-api/api.ts), never by importing electron/.',
};
/** The core serves both hosts and imports neither: they wire it (lint rule `adoption/no-import-from`). */
const HOSTS = {
  folders: ['electron/host', 'electron/main', 'electron/preload'],
  message: 'the core serves both hosts and imports neither (they import electron/core).',
};
/**
 * src/shared by concept: basics/ (clock, backoff, emitter, errors, zod) import nothing else of it; records/
 * (animal, categories, profile, ids, JSON codec) and i18n/ build on basics; app-api/ (the channels, the
 * client over a transport, results, the host's protocol) on all of them (lint rule `adoption/no-import-from`).
 */
const ABOVE_BASICS = {
  folders: ['src/shared/records', 'src/shared/i18n', 'src/shared/app-api'],
  message: "src/shared/basics is the contract's floor: it imports nothing else of src/shared.",
};
const APP_API = {
  folders: ['src/shared/app-api'],
  message: 'the records and the words are what the app API carries: they do not import it.',
};
/**
 * The sync engine sends the outbox and shows nothing: it reads what this computer keeps (src/storage), the
 * words and the contract, no feature (the queue's screens are src/queue's). The features are src/'s folders.
 */
const ENGINE_READS = ['shared', 'storage', 'language', 'sync'];
const FEATURES = {
  folders: readdirSync(new URL('src', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !ENGINE_READS.includes(entry.name))
    .map((entry) => `src/${entry.name}`),
  message: 'the sync engine depends on no feature (what staff see of the queue is src/queue).',
};
/**
 * A sandboxed preload's `require` loads only `electron` and the Node modules events, timers
 * and url (https://electronjs.org/docs/latest/tutorial/tutorial-preload, "Available API");
 * what it needs beyond electron is bundled in from src/shared.
 */
const PACKAGES_BUT_ELECTRON = {
  regex: '^(?!electron$)[^./]',
  message: 'The preload imports only electron and src/shared (a sandboxed preload loads no packages).',
};
const CODE_BUT_SHARED = {
  regex: '^\\.\\./(?!\\.\\./src/shared/)',
  message: 'The preload imports only electron and src/shared (thin wiring: no core, host, main or renderer).',
};

/**
 * The layers (docs/architecture.md, Layers): what the files of each folder may not import. A file
 * takes the first row that holds it, so a folder comes before the folders that hold it and no row
 * overrides another. test/lint/boundaries.test.ts lints a forbidden import for each rule.
 */
const LAYERS = [
  // the one module that imports zod/mini itself, setting its messages
  {
    files: ['src/shared/basics/zod.ts'],
    mayNotImport: [ELECTRON, NODE_BUILTINS, DOM_ONLY, ELECTRON_CODE, ABOVE_BASICS],
  },
  // the contract's own floors: basics, then the records and the words, then the app API
  {
    files: ['src/shared/basics/**'],
    mayNotImport: [ELECTRON, NODE_BUILTINS, DOM_ONLY, ELECTRON_CODE, ZOD_DIRECT, ABOVE_BASICS],
  },
  {
    files: ['src/shared/records/**', 'src/shared/i18n/**'],
    mayNotImport: [ELECTRON, NODE_BUILTINS, DOM_ONLY, ELECTRON_CODE, ZOD_DIRECT, APP_API],
  },
  { files: ['src/shared/**/*.ts'], mayNotImport: [ELECTRON, NODE_BUILTINS, DOM_ONLY, ELECTRON_CODE, ZOD_DIRECT] },
  // the window's reactive t and formatters, made of src/shared's
  { files: ['src/language/**'], mayNotImport: [ELECTRON, NODE_BUILTINS, ELECTRON_CODE, ZOD_DIRECT] },
  { files: ['src/sync/**'], mayNotImport: [ELECTRON, NODE_BUILTINS, ELECTRON_CODE, ZOD_DIRECT, SHARED_T, FEATURES] },
  {
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    mayNotImport: [ELECTRON, NODE_BUILTINS, ELECTRON_CODE, ZOD_DIRECT, SHARED_T],
  },
  { files: ['electron/core/**/*.ts'], mayNotImport: [ELECTRON, DOM_ONLY, RENDERER, HOSTS] },
  { files: ['electron/host/**/*.ts'], mayNotImport: [ELECTRON, DOM_ONLY, RENDERER] },
  { files: ['electron/main/**/*.ts'], mayNotImport: [DOM_ONLY, RENDERER] },
  { files: ['electron/preload/**/*.ts'], mayNotImport: [PACKAGES_BUT_ELECTRON, CODE_BUT_SHARED] },
  // the specs that drive the Electron app
  { files: ['test/e2e/electron/**'], mayNotImport: [] },
  { files: ['test/**/*.ts'], mayNotImport: [ELECTRON] },
];

/**
 * The rows as ESLint config blocks, each for its files but those of the rows before it: a module
 * named (`name`) or matched (`group`, `regex`) goes to `no-restricted-imports`, folders to
 * `adoption/no-import-from`.
 */
function layerBlocks(layers) {
  return layers.flatMap(({ files, mayNotImport }, index) => {
    const ignores = layers.slice(0, index).flatMap((layer) => layer.files);
    const paths = mayNotImport.filter((item) => 'name' in item);
    const patterns = mayNotImport.filter((item) => 'group' in item || 'regex' in item);
    const [folders, ...more] = mayNotImport.filter((item) => 'folders' in item);
    if (more.length > 0) throw new Error(`${files.join(', ')}: one list of folders per row`);
    const rules = {};
    if (paths.length || patterns.length) {
      rules['no-restricted-imports'] = [
        'error',
        { ...(paths.length && { paths }), ...(patterns.length && { patterns }) },
      ];
    }
    if (folders) rules['adoption/no-import-from'] = ['error', folders];
    return Object.keys(rules).length ? [{ files, ignores, ...(folders && { plugins: { adoption } }), rules }] : [];
  });
}

export default tseslint.config(
  {
    ignores: [
      'out/',
      'dist/',
      'node_modules/',
      'test-results/',
      'sim-results/',
      'playwright-report/',
      'test/bench/results/',
      'src/shared/i18n/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { projectService: false, extraFileExtensions: ['.svelte'], parser: tseslint.parser, svelteConfig },
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['src/shared/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...layerBlocks(LAYERS),
  {
    // Folders are the architecture: a folder with an index.ts is entered only through it.
    files: ['electron/**/*.ts', 'src/**/*.ts', 'src/**/*.svelte', 'scripts/**/*.ts', 'scripts/**/*.mjs'],
    plugins: { adoption },
    rules: { 'adoption/subsystem-entry': 'error' },
  },
);
