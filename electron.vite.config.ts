import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

const root = import.meta.dirname;

/** A module of one of the renderer's feature folders (src/<feature>/…), docs/architecture.md "Folders". */
const CONTRACT_MODULE = /[\\/]src[\\/]shared[\\/]|[\\/]node_modules[\\/]zod[\\/]/;
const SHELL_MODULE = /[\\/]src[\\/]shell[\\/]/;
const FEATURE_MODULE =
  /[\\/]src[\\/](add|app|categories|detail|diagnostics|list|orders|profiles|shell|storage|sync|toolkit)[\\/]/;

/**
 * The renderer's entry imports its next steps with `import()` so that each is evaluated in a
 * task of its own (src/main.ts); this lets the page fetch those chunks (not evaluate them)
 * together with the entry, as `<link rel="modulepreload">`, instead of one after another.
 */
function preloadEntrySteps(): Plugin {
  return {
    name: 'adoption-desk:preload-entry-steps',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      const entry = Object.values(bundle).find((item) => item.type === 'chunk' && item.isEntry);
      if (html?.type !== 'asset' || entry?.type !== 'chunk') return;
      const files = new Set<string>();
      const add = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk' || files.has(fileName) || fileName === entry.fileName) return;
        files.add(fileName);
        for (const imported of chunk.imports) add(imported);
      };
      for (const fileName of entry.dynamicImports) add(fileName);
      const source = String(html.source);
      const links = [...files]
        .filter((fileName) => !source.includes(`/${fileName}"`))
        .map((fileName) => `\n    <link rel="modulepreload" crossorigin href="./${fileName}">`)
        .join('');
      html.source = source.replace(/\n(\s*)<\/head>/, `${links}\n$1</head>`);
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Pure-JavaScript dependencies are bundled into the main process; only the native modules
      // (keytar, the policy watcher: loaded from app.asar.unpacked) stay modules in the package
      // (electron-builder.yml `files`). electron-updater goes into a chunk of its own, loaded by
      // the packaged app alone (electron/main/updates.ts).
      externalizeDeps: { exclude: ['zod', 'lossless-json', 'undici', 'electron-updater'] },
      rollupOptions: { input: { index: resolve(root, 'electron/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload must be one self-contained CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src'),
    plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') }), preloadEntrySteps()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      minify: true,
      // One stylesheet, linked by index.html: a chunk loaded with import() then waits for no CSS.
      cssCodeSplit: false,
      rollupOptions: {
        input: { index: resolve(root, 'src/index.html') },
        // The features' index.ts files re-export screens beside stores; their modules have no side
        // effects but their exports, so a screen lands in the chunk of the step that uses it (the
        // components of step 3, or its own lazy chunk), not in the stores' chunk that imports
        // the same index for a store. Styles are side effects and stay (first rule wins).
        // The contract (src/shared and zod) and the shell's stores are a chunk each: every step
        // and every screen reads them, and small chunks of their parts would only add requests.
        output: {
          codeSplitting: {
            groups: [
              { name: 'contract', test: CONTRACT_MODULE },
              { name: 'shell', test: SHELL_MODULE },
            ],
          },
        },
        treeshake: {
          moduleSideEffects: [
            { test: /\.css$|[?&]type=style/, sideEffects: true },
            { test: FEATURE_MODULE, sideEffects: false },
          ],
        },
      },
    },
  },
});
