// Lint rules, including the layer boundaries: what runs where may import only what exists there.
import js from '@eslint/js';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

const NODE_BUILTINS = { group: ['node:*'], message: 'The renderer runs in a browser: no Node built-ins.' };
const ELECTRON = {
  name: 'electron',
  message: 'Only electron/main and electron/preload may import electron (keep logic Electron-free).',
};
const DOM_ONLY = {
  group: ['dexie', 'svelte', 'svelte/*', '*.svelte', 'virtua', 'virtua/*'],
  message: 'Shared and core code runs in plain Node: no DOM-only modules.',
};
const RENDERER = {
  group: ['**/src/lib/*', '**/src/components/*', '**/src/stores/*', '**/App.svelte'],
  message: 'The core must not reach into the renderer.',
};

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'test/bench/results/'] },
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
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON], patterns: [NODE_BUILTINS] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON], patterns: [NODE_BUILTINS, DOM_ONLY] }] },
  },
  {
    files: ['electron/core/**/*.ts', 'electron/host/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON], patterns: [DOM_ONLY, RENDERER] }] },
  },
  {
    files: ['test/**/*.ts'],
    ignores: ['test/e2e/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON] }] },
  },
);
