import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { englishMessageModule, readCatalogue } from './scripts/i18n/compile-messages';

const root = import.meta.dirname;

/** A module of one of the renderer's feature folders (src/<feature>/…), docs/architecture.md "Folders". */
const CONTRACT_MODULE = /[\\/]src[\\/]shared[\\/]|[\\/]node_modules[\\/](zod|@messageformat[\\/]runtime)[\\/]/;
/**
 * The catalogues of the languages other than English, and zod's own messages in them: a chunk each,
 * loaded when chosen (src/shared/i18n, src/shared/zod.ts).
 */
const LAZY_CATALOGUE =
  /[\\/]src[\\/]shared[\\/]i18n[\\/]generated[\\/](?!en\.ts$|messages\.ts$)[^\\/]+\.ts$|[\\/]zod[\\/]v4[\\/]locales[\\/](?!en\.js$)/;
/** A message of English: it goes with the chunk of the code that shows it (englishMessages). */
const ENGLISH_AREA = /virtual:english-message:/;
/**
 * The stores and data layer of the features whose state every window keeps from the start (the
 * profile session's outbox, cache, list, add form, categories) and the list screen's parts, which
 * the start-up shows first: one chunk of step 2, though the lazily loaded screens import parts of
 * them too. Of src/app only its stores: index.ts is the entry's (it loads steps 2 and 3) and
 * app-view.ts is step 3 (a group takes in what its modules import); the other index.ts files only
 * re-export. Vite's preload helper joins the contract, which the entry
 * imports anyway.
 */
const STORES_MODULE =
  /[\\/]src[\\/]app[\\/][^\\/]+\.svelte\.ts$|[\\/]src[\\/](add|categories|storage|sync)[\\/](?!index\.ts$)[^\\/]+\.ts$|[\\/]src[\\/]list[\\/](?!index\.ts$)/;
const PRELOAD_HELPER = /vite[\\/]preload-helper/;
/** The shell's stores and the libraries every step uses (Svelte's runtime, Dexie, the virtual list). */
const RUNTIME_MODULE = /[\\/]src[\\/](shell|i18n)[\\/]|[\\/]node_modules[\\/](svelte|dexie|virtua)[\\/]/;
const FEATURE_MODULE =
  /[\\/]src[\\/](add|app|categories|detail|diagnostics|i18n|list|orders|profiles|shell|storage|sync|toolkit)[\\/]/;

const GENERATED = resolve(root, 'src/shared/i18n/generated');
const ENGLISH_MESSAGE = 'virtual:english-message:';

/**
 * English in the window comes message by message (docs/i18n.md): the build makes a module of each
 * English message (adding it to src/shared/i18n/english.ts's registry) and each module that names a
 * message (`t('list.title')`, a key in a table, or every message of an area for a key made as
 * `` `status.${status}` ``) imports it; so a message goes with the chunk of the code that shows it, a
 * screen loaded on first use brings its own words and the start-up only those it shows. The module
 * of all of English (generated/en.ts: the core, the tests and the tools load it) is the registry alone
 * here. A key the scan cannot see shows as the key, said on the console (src/shared/i18n/translate.ts).
 * With `shortKeys` (the window) each key is written as a short id in every module, the catalogues'
 * too (`'list.offlineMatching'` → `'_3f'`): a key is named where it is used and in its catalogue, and
 * the names weighed 3 KiB of the start-up, gzipped. The keys of an area named by a key made at run
 * time (`` `status.${status}` ``) stay whole.
 */
function englishMessages({ shortKeys }: { shortKeys: boolean }): Plugin {
  const messages = readCatalogue('en', resolve(root, 'src/shared/i18n/catalogues'));
  const allEnglish = resolve(GENERATED, 'en.ts');
  const registry = resolve(root, 'src/shared/i18n/english.ts');
  const areas = new Set([...messages.keys()].map((key) => key.slice(0, key.indexOf('.'))));
  const dynamicAreas = new Set<string>();
  for (const entry of readdirSync(resolve(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|svelte)$/.test(entry.name)) continue;
    const text = readFileSync(resolve(entry.parentPath, entry.name), 'utf8');
    for (const [, area] of text.matchAll(/`([a-z][A-Za-z]*)\.\$\{/g))
      if (area && areas.has(area)) dynamicAreas.add(area);
  }
  const shortId = new Map(
    [...messages.keys()]
      .filter((key) => shortKeys && !dynamicAreas.has(key.slice(0, key.indexOf('.'))))
      .map((key, index) => [key, `_${index.toString(36)}`]),
  );
  const KEY_LITERAL = /(['"`])([a-z][A-Za-z]*\.[a-z][A-Za-z0-9]*)\1/g;
  const shorten = (code: string) =>
    code.replace(KEY_LITERAL, (literal, quote: string, key: string) => {
      const id = shortId.get(key);
      return id ? `${quote}${id}${quote}` : literal;
    });
  return {
    name: 'adoption-desk:english-messages',
    enforce: 'post',
    resolveId(id) {
      return id.startsWith(ENGLISH_MESSAGE) ? `\0${id}` : null;
    },
    load(id) {
      if (id === allEnglish) return `export { english as default } from ${JSON.stringify(registry)};\n`;
      if (!id.startsWith(`\0${ENGLISH_MESSAGE}`)) return null;
      const key = id.slice(ENGLISH_MESSAGE.length + 1);
      return shorten(englishMessageModule(key, messages.get(key) ?? '', registry));
    },
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!file.startsWith(resolve(root, 'src')) || /[?&]type=style/.test(id)) return null;
      // The other languages' modules (Spanish, the pseudo-locale) name their keys the same short way.
      if (file.startsWith(GENERATED)) return shortKeys ? { code: shorten(code), map: null } : null;
      const used = new Set<string>();
      for (const [, key] of code.matchAll(/['"`]([a-z][A-Za-z]*\.[a-z][A-Za-z0-9]*)['"`]/g)) {
        if (key && messages.has(key)) used.add(key);
      }
      for (const [, area] of code.matchAll(/`([a-z][A-Za-z]*)\.\$\{/g)) {
        if (!area || !areas.has(area)) continue;
        for (const key of messages.keys()) if (key.startsWith(`${area}.`)) used.add(key);
      }
      if (used.size === 0) return null;
      const imports = [...used].sort().map((key) => `import ${JSON.stringify(ENGLISH_MESSAGE + key)};`);
      return { code: `${imports.join('\n')}\n${shorten(code)}`, map: null };
    },
  };
}

/**
 * zod/mini's namespace carries every locale of zod (`z.locales`, through the locales' index), which the
 * window never reads: the bundler drops them, but for one imported on its own elsewhere, which then
 * stays where the index is, in the start-up, instead of a chunk of its own (zod's Spanish, loaded when
 * Spanish is chosen: src/shared/zod.ts). Here the namespace's index of locales is an empty module.
 */
function withoutZodLocaleIndex(): Plugin {
  const EMPTY = '\0adoption-desk:no-zod-locales';
  return {
    name: 'adoption-desk:without-zod-locale-index',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === '../locales/index.js' &&
        importer &&
        /[\\/]zod[\\/]v4[\\/](mini[\\/]external|core[\\/]index)\.js$/.test(importer)
      ) {
        return EMPTY;
      }
      return null;
    },
    load(id) {
      return id === EMPTY ? 'export {};\n' : null;
    },
  };
}

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
      externalizeDeps: { exclude: ['zod', 'lossless-json', 'undici', 'electron-updater', '@messageformat/runtime'] },
      rollupOptions: { input: { index: resolve(root, 'electron/main/index.ts') } },
    },
  },
  preload: {
    // The preload parses with the contract: it takes the English messages of its checks, not all of them.
    plugins: [englishMessages({ shortKeys: false })],
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
    plugins: [
      svelte({ configFile: resolve(root, 'svelte.config.js') }),
      englishMessages({ shortKeys: true }),
      withoutZodLocaleIndex(),
      preloadEntrySteps(),
    ],
    resolve: {
      // Dexie's package entry for `import` is a wrapper around its ES5 UMD build (so that a
      // require() elsewhere shares the one instance); the window imports Dexie alone, and its
      // modern ES module build (shipped in the package, exported as `dexie/dist/*`) is smaller
      // and lets the bundler drop what the app does not use.
      alias: [{ find: /^dexie$/, replacement: 'dexie/dist/modern/dexie.mjs' }],
    },
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
        // The contract (src/shared and zod) and the runtime (the shell's stores, Svelte, Dexie, the
        // virtual list) are a chunk each: every step and every screen reads them, and small chunks
        // of their parts would only add requests and lose compression (each file is gzipped alone).
        output: {
          codeSplitting: {
            groups: [
              {
                name: 'contract',
                test: (id) =>
                  (CONTRACT_MODULE.test(id) && !LAZY_CATALOGUE.test(id) && !ENGLISH_AREA.test(id)) ||
                  PRELOAD_HELPER.test(id),
              },
              { name: 'runtime', test: RUNTIME_MODULE },
              { name: 'stores', test: STORES_MODULE },
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
