// The lint config enforces the layers (docs/architecture.md): each case lints one import as if
// it were in a file of that layer (ESLint's Node API, eslint.config.js as the project uses it).
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
    ['electron/core/probe.ts', "import { openProfileDb } from '../../src/data/db';\nexport const o = openProfileDb;\n"],
    // the renderer reaches the core only through the app API
    [
      'src/lib/probe.ts',
      "import { createAppCore } from '../../electron/core/app-core';\nexport const c = createAppCore;\n",
    ],
    [
      'src/stores/probe.svelte.ts',
      "import type { Router } from '../../electron/core/router';\nexport type R = Router;\n",
    ],
    [
      'src/shared/probe.ts',
      "import { sendHttp } from '../../electron/core/http-client';\nexport const s = sendHttp;\n",
    ],
    // src/data: no Electron, no Node, nothing of the stores or components above it
    ['src/data/probe.ts', "import 'electron';\n"],
    ['src/data/probe.ts', "import { readFile } from 'fs/promises';\nexport const r = readFile;\n"],
    ['src/data/probe.ts', "import { Router } from '../../electron/core/router';\nexport const r = Router;\n"],
    ['src/data/probe.ts', "import { AppStores } from '../stores/app-context.svelte';\nexport const a = AppStores;\n"],
    ['src/data/probe.ts', "import Form from '../components/AddAnimal.svelte';\nexport const f = Form;\n"],
    // electron/main: Electron wiring, nothing of the renderer or the DOM
    ['electron/main/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['electron/main/probe.ts', "import { openProfileDb } from '../../src/data/db';\nexport const o = openProfileDb;\n"],
    [
      'electron/main/probe.ts',
      "import { AppStores } from '../../src/stores/app-context.svelte';\nexport const a = AppStores;\n",
    ],
    // electron/preload: electron and src/shared only
    ['electron/preload/probe.ts', "import { Router } from '../core/router';\nexport const r = Router;\n"],
    ['electron/preload/probe.ts', "import { startBrowserHost } from '../host';\nexport const s = startBrowserHost;\n"],
    ['electron/preload/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['electron/preload/probe.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
    [
      'electron/preload/probe.ts',
      "import { chooseTransport } from '../../src/lib/probe';\nexport const c = chooseTransport;\n",
    ],
  ])('%s may not run %j', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['electron/main/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/core/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['src/lib/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    [
      'src/data/probe.ts',
      "import Dexie from 'dexie';\nimport { ok } from '../shared/result';\nexport const d = [Dexie, ok];\n",
    ],
    ['src/stores/probe.svelte.ts', "import { openProfileDb } from '../data/db';\nexport const o = openProfileDb;\n"],
    ['electron/main/probe.ts', "import { Router } from '../core/router';\nexport const r = Router;\n"],
    ['electron/preload/probe.ts', "import { contextBridge } from 'electron';\nexport const c = contextBridge;\n"],
    ['electron/preload/probe.ts', "import { ipcName } from '../../src/shared/api';\nexport const i = ipcName;\n"],
  ])('%s may run %j', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});
