/**
 * The line budgets issue 32 set, kept: the core's front door only wires its subsystems (a rule
 * that creeps into it shows first as lines), the build has no custom plugins to grow, and the
 * README stays the front door staff and newcomers read to the end (the rest is under docs/).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BUDGETS: Record<string, number> = {
  'electron/core/app-core.ts': 200,
  'electron.vite.config.ts': 120,
  'README.md': 250,
};

const lines = (path: string): number => readFileSync(resolve(ROOT, path), 'utf8').replace(/\n$/, '').split('\n').length;

describe('line budgets (issue 32)', () => {
  for (const [path, budget] of Object.entries(BUDGETS)) {
    it(`${path} has at most ${budget} lines`, () => {
      expect(lines(path), path).toBeLessThanOrEqual(budget);
    });
  }
});
