import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

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
      // Pure-JavaScript dependencies are bundled into the main process; only keytar (native, loaded
      // from app.asar.unpacked) stays a module in the package (electron-builder.yml `files`).
      externalizeDeps: { exclude: ['zod', 'lossless-json'] },
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
      rollupOptions: { input: { index: resolve(root, 'src/index.html') } },
    },
  },
});
