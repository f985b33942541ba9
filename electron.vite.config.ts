import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

const root = import.meta.dirname;
const folder = (id: string) => /^src[\\/]([^\\/]+)[\\/]/.exec(relative(root, id))?.[1];
/** src/app loads the next steps of the start-up with `import()` (src/main.ts). */
const inApp = (id: string) => folder(id) === 'app';
// The entry's own modules (src/main.ts, transport.ts, app/index.ts) stay its chunk, which no other imports:
// the entry awaits its steps, and a step importing it back would wait for it forever.
const ownedByEntry = (id: string) => inApp(id) || (/^src[\\/]/.test(relative(root, id)) && !folder(id));
/** Loaded with `import()` somewhere (a screen, a language, a step): a chunk of its own. */
const loadedLater = (id: string, ctx: { getModuleInfo(id: string): { dynamicImporters: string[] } | null }) =>
  Boolean(ctx.getModuleInfo(id)?.dynamicImporters.length);

/** The window's English (generated/en-window.ts), not the core's, which reach it as text (docs/i18n.md). */
const WINDOW_ENGLISH = {
  find: /^\.{1,2}\/(?:.*\/)?generated\/en$/,
  replacement: resolve(root, 'src/shared/i18n/generated/en-window.ts'),
};

/**
 * The entry imports its next steps with `import()`, each evaluated in a task of its own (src/main.ts): the
 * page fetches them (not evaluates them) with the entry, as `<link rel="modulepreload">`, not one by one.
 */
function preloadEntrySteps(): Plugin {
  return {
    name: 'adoption-desk:preload-entry-steps',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      const source = String(html.source);
      const files = new Set<string>();
      const add = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk' || files.has(fileName)) return;
        files.add(fileName);
        for (const imported of chunk.imports) add(imported);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.isDynamicEntry && inApp(chunk.facadeModuleId ?? '')) add(chunk.fileName);
      }
      const links = [...files]
        .filter((fileName) => !source.includes(`/${fileName}"`))
        .map((fileName) => `\n    <link rel="modulepreload" crossorigin href="./${fileName}">`);
      html.source = source.replace(/\n(\s*)<\/head>/, `${links.join('')}\n$1</head>`);
    },
  };
}

export default defineConfig({
  main: {
    build: {
      // Pure-JavaScript dependencies are bundled into the main process; only the native modules (keytar,
      // the policy watcher: loaded from app.asar.unpacked) stay modules in the package (electron-builder.yml
      // `files`). electron-updater goes into a chunk of its own, loaded by the packaged app alone.
      externalizeDeps: { exclude: ['zod', 'lossless-json', 'undici', 'electron-updater', '@messageformat/runtime'] },
      rollupOptions: { input: { index: resolve(root, 'electron/main/index.ts') } },
    },
  },
  preload: {
    // A sandboxed preload is one self-contained CommonJS file; it parses with the contract, in English.
    resolve: { alias: [WINDOW_ENGLISH] },
    build: {
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
    resolve: {
      // Dexie's package entry for `import` wraps its ES5 UMD build (so that a require() elsewhere
      // shares the one instance); the window imports Dexie alone, and its modern ES module build
      // (exported as `dexie/dist/*`) is smaller and lets the bundler drop what the app does not use.
      alias: [{ find: /^dexie$/, replacement: 'dexie/dist/modern/dexie.mjs' }, WINDOW_ENGLISH],
    },
    build: {
      minify: true, // electron-vite leaves it off
      // Chunks are files of the app (app://, the host on loopback): a lazy one fetches its imports
      // itself, the start-up's are preloaded (preloadEntrySteps), so Vite's lists of them are left
      // out. One stylesheet, linked by index.html: a chunk loaded with import() waits for no CSS.
      modulePreload: false,
      cssCodeSplit: false,
      rollupOptions: {
        input: { index: resolve(root, 'src/index.html') },
        // The start-up in two chunks (a group takes in its modules' imports): `start`, what the entry imports
        // (the contract, the window's English, src/language, Svelte's core), evaluated before it; `app`, what the
        // steps it loads with import() from src/app add (the stores, the components). Smaller chunks would add
        // requests and lose compression (each file is gzipped alone). What is loaded with import() stays
        // apart even where it is imported too (zod's index of locales imports its Spanish, loaded when chosen).
        output: {
          // The start-up's chunks call almost all their functions as the window opens: V8 compiles them at once, off
          // the main thread, and keeps them in the code cache (Chromium 136+: v8.dev/blog/explicit-compile-hints).
          postBanner: (chunk) => (['index', 'start', 'app'].includes(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
          codeSplitting: {
            groups: [
              { name: (id, ctx) => (loadedLater(id, ctx) || ownedByEntry(id) ? null : 'start'), tags: ['$initial'] },
              { name: (id, ctx) => (inApp(id) && loadedLater(id, ctx) ? 'app' : null) },
            ],
          },
        },
        // The features (src/<folder>/ but shared): their index.ts files re-export screens beside stores, and
        // their modules have no side effects but their exports, so a screen lands in the chunk of the step
        // that uses it, not in the start-up's, which imports the same index for a store. Styles are side effects.
        treeshake: {
          moduleSideEffects: (id) =>
            /\.css$|[?&]type=style/.test(id) ? true : [undefined, 'shared'].includes(folder(id)) ? undefined : false,
        },
      },
    },
  },
});
