import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;
/**
 * A hung test fails after 30 s. Vitest's 5 s default failed CPU-bound tests (the fake-clock
 * drains, the 200-round lock race) on a busy machine: speed is the benchmarks' business. Each
 * project says it (inline projects do not inherit the root's test options).
 */
const testTimeout = 30_000;

export default defineConfig({
  test: {
    // Both cores (vitest's default leaves one idle: availableParallelism() - 1).
    maxWorkers: 2,
    globals: false,
    restoreMocks: true,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        test: {
          name: 'node',
          testTimeout,
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
          testTimeout,
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
          testTimeout,
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
          testTimeout,
          environment: 'node',
          include: ['test/src/shared/**/*.test.ts'],
        },
      },
    ],
  },
});
