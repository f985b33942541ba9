/**
 * Electron's entry: the app core over Electron's `net.fetch` and the OS keychain, the
 * secure window and the IPC transport (see main-process.ts).
 */
import { app, net } from 'electron';
import { join } from 'node:path';
import { createAppCore } from '../core/app-core';
import { openOsKeychain } from '../core/os-keychain';
import { startMainProcess } from './main-process';

// Tests (and the e2e project) give the app its own data folder.
if (process.env.ADOPTION_USER_DATA_DIR) app.setPath('userData', process.env.ADOPTION_USER_DATA_DIR);

const resourcesDir = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources');

startMainProcess({
  outDir: import.meta.dirname,
  ...(!app.isPackaged && process.env.ELECTRON_RENDERER_URL ? { devServerUrl: process.env.ELECTRON_RENDERER_URL } : {}),
  createCore: async (userDataDir) =>
    createAppCore({
      fetch: net.fetch as typeof fetch,
      dataDir: userDataDir,
      secretStore: await openOsKeychain(process.env.ADOPTION_KEYCHAIN_SERVICE),
      resourcesDir,
      ...(process.env.ADOPTION_LOCAL_DEMO_URL ? { localDemoUrl: process.env.ADOPTION_LOCAL_DEMO_URL } : {}),
    }),
});
