/**
 * `npm run simulate` (test/sim/cli.ts) runs the long simulation with this config: the `sim`
 * project's setup (the window's Svelte stores compiled, the simulated process set up) over the
 * one file that runs the days its worker was given.
 */
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  root,
  plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
  resolve: { conditions: ['browser'] },
  test: {
    name: 'simulate',
    environment: 'node',
    include: [process.env.SIM_FILE ?? 'test/sim/run/days.run.ts'],
    setupFiles: ['test/sim/setup.ts'],
    testTimeout: 0,
    pool: 'forks',
    execArgv: process.env.SIM_EXEC_ARGV ? process.env.SIM_EXEC_ARGV.split(' ') : [],
    reporters: ['dot'],
  },
});
