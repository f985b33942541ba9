// The lint config enforces the layers: what runs in plain Node or the browser cannot
// import Electron, and the renderer cannot import Node built-ins.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer boundaries', () => {
  it.each([
    ['electron/core/probe.ts', "import 'electron';\n"],
    ['electron/core/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src/shared/probe.ts', "import 'electron';\n"],
    ['src/shared/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['src/lib/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['src/lib/probe.ts', "import 'electron';\n"],
    ['electron/host/probe.ts', "import 'electron';\n"],
  ])('%s may not run %j', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['electron/main/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/core/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['src/lib/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
  ])('%s may run %j', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});
