import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  test: {
    globals: false,
    restoreMocks: true,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [
            'test/src/**',
            'test/e2e/**',
            'test/keychain/**',
            'test/soak/**',
            'test/packaging/**',
            'test/sim/**',
          ],
        },
      },
      {
        plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/src/**/*.test.ts'],
          exclude: ['test/src/shared/**'],
          setupFiles: ['test/src/setup.ts'],
        },
      },
      {
        // The deterministic simulator of event days (test/sim, docs/simulation.md): the window's
        // stores are Svelte modules, so it compiles them as the renderer project does, in Node.
        plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'sim',
          environment: 'node',
          include: ['test/sim/**/*.test.ts'],
          setupFiles: ['test/sim/setup.ts'],
          testTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'keychain',
          environment: 'node',
          include: ['test/keychain/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'soak',
          environment: 'node',
          include: ['test/soak/**/*.test.ts'],
          testTimeout: 600_000,
        },
      },
      {
        // `npm run package:check`: electron-builder's config, the package it makes, icons, release workflow.
        test: {
          name: 'packaging',
          environment: 'node',
          include: ['test/packaging/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'shared',
          environment: 'node',
          include: ['test/src/shared/**/*.test.ts'],
        },
      },
    ],
  },
});
