// The lint config enforces the layers and the subsystem entries (docs/architecture.md, Layers and
// Folders): each case lints one import as if it were in a file of that folder (ESLint's Node API,
// eslint.config.js as the project uses it).
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// a path, not a URL's pathname (which reads /C:/… on Windows)
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });
// The first lint loads the config and its plugins (seconds on a busy or a Windows runner): once, here.
beforeAll(async () => {
  await eslint.lintText('', { filePath: 'electron/core/probe.ts' });
}, 60_000);

async function problems(filePath: string, code: string, ruleIds: readonly string[]): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => ruleIds.includes(m.ruleId ?? '')).map((m) => m.message);
}

const restrictedImports = (filePath: string, code: string) => problems(filePath, code, ['no-restricted-imports']);

describe('layer boundaries', () => {
  it.each([
    ['electron/core/probe.ts', "import 'electron';\n"],
    ['electron/core/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src/shared/probe.ts', "import 'electron';\n"],
    ['src/shared/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['src/shell/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['src/shell/probe.ts', "import 'electron';\n"],
    ['electron/host/probe.ts', "import 'electron';\n"],
    ['electron/core/probe.ts', "import { openProfileDb } from '../../src/storage';\nexport const o = openProfileDb;\n"],
    // the renderer reaches the core only through the app API
    ['src/shell/probe.ts', "import { createAppCore } from '../../electron/core';\nexport const c = createAppCore;\n"],
    ['src/list/probe.svelte.ts', "import type { Router } from '../../electron/core';\nexport type R = Router;\n"],
    [
      'src/shared/probe.ts',
      "import { sendHttp } from '../../electron/core/http/http-client';\nexport const s = sendHttp;\n",
    ],
    // the renderer's folders: no Electron, no Node, whichever feature
    ['src/storage/probe.ts', "import 'electron';\n"],
    ['src/sync/probe.ts', "import { readFile } from 'fs/promises';\nexport const r = readFile;\n"],
    ['src/storage/probe.ts', "import { Router } from '../../electron/core';\nexport const r = Router;\n"],
    // src/ uses zod/mini through src/shared/basics/zod.ts (its messages set), never zod itself
    ['src/shared/probe.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
    ['src/storage/probe.ts', "import * as z from 'zod/mini';\nexport const s = z.string();\n"],
    ['src/list/probe.svelte.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
    // the window's t and formatters come from src/language (redrawn when the language changes)
    ['src/list/probe.svelte.ts', "import { t } from '../shared/i18n';\nexport const s = t('app.loading');\n"],
    [
      'src/app/App.svelte',
      '<script lang="ts">import { formatNumber } from \'../shared/i18n\';</script>{formatNumber(1)}\n',
    ],
    // electron/main: Electron wiring, nothing of the renderer or the DOM
    ['electron/main/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['electron/main/probe.ts', "import { openProfileDb } from '../../src/storage';\nexport const o = openProfileDb;\n"],
    ['electron/main/probe.ts', "import { loadStores } from '../../src/app';\nexport const a = loadStores;\n"],
    // electron/preload: electron and src/shared only
    ['electron/preload/probe.ts', "import { createAppCore } from '../core';\nexport const r = createAppCore;\n"],
    ['electron/preload/probe.ts', "import { startBrowserHost } from '../host';\nexport const s = startBrowserHost;\n"],
    ['electron/preload/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['electron/preload/probe.ts', "import { z } from 'zod';\nexport const s = z.string();\n"],
    [
      'electron/preload/probe.ts',
      "import { getAdoption } from '../../src/transport';\nexport const c = getAdoption;\n",
    ],
  ])('%s may not run %j', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['electron/main/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/core/probe.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ['src/shell/probe.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    [
      'src/storage/probe.ts',
      "import Dexie from 'dexie';\nimport { ok } from '../shared/app-api/result';\nexport const d = [Dexie, ok];\n",
    ],
    ['src/list/probe.svelte.ts', "import { openProfileDb } from '../storage';\nexport const o = openProfileDb;\n"],
    ['src/storage/probe.ts', "import { z } from '../shared/basics/zod';\nexport const s = z.string();\n"],
    ['electron/main/probe.ts', "import type { Router } from '../core';\nexport type R = Router;\n"],
    ['electron/preload/probe.ts', "import { contextBridge } from 'electron';\nexport const c = contextBridge;\n"],
    [
      'electron/preload/probe.ts',
      "import { ipcName } from '../../src/shared/app-api/api';\nexport const i = ipcName;\n",
    ],
  ])('%s may run %j', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});

describe('folders that may not be imported: the core never imports the hosts; the contract by floors', () => {
  const rule = ['adoption/no-import-from'];
  it.each([
    ['electron/core/probe.ts', "import { startBrowserHost } from '../host';\nexport const s = startBrowserHost;\n"],
    [
      'electron/core/keys/probe.ts',
      "import { startAppOnHost } from '../../host/app-on-host';\nexport const s = startAppOnHost;\n",
    ],
    ['electron/core/probe.ts', "import { registerIpc } from '../main/ipc';\nexport const r = registerIpc;\n"],
    ['electron/core/service/probe.ts', "export { startMainProcess } from '../../main/main-process';\n"],
  ])('%s may not run %j', async (filePath, code) => {
    expect(await problems(filePath, code, rule)).not.toEqual([]);
  });

  it.each([
    // src/shared by concept: basics, then records and words, then the app API
    ['src/shared/basics/probe.ts', "import { Int64 } from '../records/animal';\nexport const i = Int64;\n"],
    ['src/shared/basics/zod.ts', "import { t } from '../i18n';\nexport const w = t;\n"],
    ['src/shared/records/probe.ts', "import { ok } from '../app-api/result';\nexport const o = ok;\n"],
    ['src/shared/i18n/probe.ts', "import { appApi } from '../app-api/api';\nexport const a = appApi;\n"],
    // the sync engine depends on no feature
    ['src/sync/probe.ts', "import { QueueStore } from '../queue';\nexport const o = QueueStore;\n"],
    ['src/sync/probe.ts', "import { getAppContext } from '../shell';\nexport const g = getAppContext;\n"],
  ])('%s may not run %j (the contract by floors)', async (filePath, code) => {
    expect(await problems(filePath, code, rule)).not.toEqual([]);
  });

  it('a record may import the basics, the app API a record, the engine the storage', async () => {
    const basics = "import { backoffDelay } from '../basics/backoff';\nexport const b = backoffDelay;\n";
    expect(await problems('src/shared/records/probe.ts', basics, rule)).toEqual([]);
    const record = "import { Animal } from '../records/animal';\nexport const a = Animal;\n";
    expect(await problems('src/shared/app-api/probe.ts', record, rule)).toEqual([]);
    const storage = "import { Outbox } from '../storage';\nexport const o = Outbox;\n";
    expect(await problems('src/sync/probe.ts', storage, rule)).toEqual([]);
  });

  it('a host may import the core', async () => {
    const code = "import { createAppCore } from '../core';\nexport const c = createAppCore;\n";
    expect(await problems('electron/host/probe.ts', code, rule)).toEqual([]);
  });
});

describe('a subsystem is entered through its index.ts', () => {
  const rule = ['adoption/subsystem-entry'];
  it.each([
    // the hosts and the tools see the core through electron/core/index.ts
    [
      'electron/host/probe.ts',
      "import { KeyService } from '../core/keys/key-service';\nexport const k = KeyService;\n",
    ],
    ['electron/main/probe.ts', "import { createAppCore } from '../core/app-core';\nexport const c = createAppCore;\n"],
    [
      'electron/main/probe.ts',
      "import { ProfileRegistry } from '../core/profiles';\nexport const p = ProfileRegistry;\n",
    ],
    [
      'scripts/probe.ts',
      "import { openOsKeychain } from '../electron/core/keys/os-keychain';\nexport const o = openOsKeychain;\n",
    ],
    // inside the core, one subsystem sees another through its own index.ts
    ['electron/core/service/probe.ts', "import { Scrubber } from '../keys/scrub';\nexport const s = Scrubber;\n"],
    ['electron/core/probe.ts', "export { RateLimitGovernor } from './rate-limit/governor';\n"],
    // the renderer's features
    ['src/sync/probe.ts', "import { openProfileDb } from '../storage/db';\nexport const o = openProfileDb;\n"],
    [
      'src/list/probe.svelte',
      '<script lang="ts">\n  import KeyField from \'../profiles/KeyField.svelte\';\n</script>\n<KeyField />\n',
    ],
    ['src/app/probe.ts', "export const load = () => import('../profiles/KeysAndProfilesScreen.svelte');\n"],
    ['src/main.ts', "import { createApp } from './app/app-stores.svelte';\nexport const c = createApp;\n"],
  ])('%s may not run %j', async (filePath, code) => {
    expect(await problems(filePath, code, rule)).not.toEqual([]);
  });

  it.each([
    ['electron/host/probe.ts', "import { createAppCore } from '../core';\nexport const c = createAppCore;\n"],
    ['electron/core/probe.ts', "import { KeyService } from './keys';\nexport const k = KeyService;\n"],
    ['electron/core/keys/probe.ts', "import { Scrubber } from './scrub';\nexport const s = Scrubber;\n"],
    ['src/sync/probe.ts', "import { openProfileDb } from '../storage';\nexport const o = openProfileDb;\n"],
    // src/shared is the contract, read file by file (it has no index.ts)
    ['src/sync/probe.ts', "import { ok } from '../shared/app-api/result';\nexport const o = ok;\n"],
  ])('%s may run %j', async (filePath, code) => {
    expect(await problems(filePath, code, rule)).toEqual([]);
  });
});
