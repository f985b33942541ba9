/**
 * Electron's entry: the app core over Node's own `fetch` and the OS keychain, the secure window
 * and the IPC transport (see main-process.ts).
 *
 * Why Node's `fetch` and not Electron's `net.fetch`: the core follows a redirect only within the
 * service's origin (never elsewhere with the key), which needs `redirect: 'manual'` and the 3xx
 * with its Location. `net.fetch` rejects such a redirect with "Redirect was cancelled"
 * (lib/common/api/net-client-request.ts; electron/electron#43715), so every redirect would show
 * as "offline", and it goes through Chromium's HTTP cache, which could feed stale rate-limit
 * headers to the governor. Node's `fetch` is what every core test runs on, so the app behaves
 * as tested. Chromium still decides the way: the core asks `session.resolveProxy` for each
 * address (system settings, PAC) and sends through that proxy with undici (core/http/proxy.ts).
 * Node's roots are not the system's; system-certificates.ts adds the system's roots.
 */
import { app, session } from 'electron';
import tls from 'node:tls';
import { chromiumProxyResolver, createAppCore, openOsKeychain, organisationSettings } from '../core';
import { failStartup, startMainProcess } from './main-process';
import { readPolicyStore } from './policy-store';
import { electronUpdater } from './updates';
import { startupSettings } from './startup-settings';
import { trustSystemCertificates } from './system-certificates';

/** Everything the entry does; a throw in it is said in a dialog and the app exits (failStartup). */
function main(): void {
  const settings = startupSettings({
    env: process.env,
    isPackaged: app.isPackaged,
    platform: process.platform,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
  });
  // Tests (and the e2e project) give the app its own data folder; a packaged app never.
  if (settings.userDataDir) app.setPath('userData', settings.userDataDir);
  // Said at every start: the packaged-app spec reads it on each system (an organisation's root must be trusted).
  const roots = trustSystemCertificates(tls as Parameters<typeof trustSystemCertificates>[0]);
  console.log(
    roots === null
      ? 'system certificates: this runtime cannot add them'
      : `system certificates: ${roots.system} roots read, ${roots.added} added`,
  );

  startMainProcess({
    outDir: import.meta.dirname,
    packaged: app.isPackaged,
    ...(settings.devServerUrl ? { devServerUrl: settings.devServerUrl } : {}),
    createCore: async (userDataDir) => {
      // The installed app updates itself (core/updates decides when; updates.ts drives electron-updater).
      const updater = settings.managed
        ? await electronUpdater({ userDataDir, productName: app.name, logError: (line) => console.error(line) })
        : null;
      const core = await createAppCore({
        fetch: (input, init) => globalThis.fetch(input, init),
        dataDir: userDataDir,
        secretStore: await openOsKeychain(settings.keychainService),
        // The installed app: the organisation's policies first (managed-settings), read once at start.
        builtIns: settings.managed
          ? await organisationSettings({
              platform: process.platform,
              env: process.env,
              packagedFile: settings.profilesFile,
              readPolicyStore: () => readPolicyStore(process.platform),
            })
          : { file: settings.profilesFile },
        // The system's proxy settings and PAC scripts, as Chromium resolves them for each address
        // (docs/api/session.md: `ses.resolveProxy(url)` resolves with "PROXY host:port; DIRECT" …).
        proxy: chromiumProxyResolver((url) => session.defaultSession.resolveProxy(url)),
        ...(settings.localDemoUrl ? { localDemoUrl: settings.localDemoUrl } : {}),
        ...(updater ? { updates: updater.options } : {}),
        // docs/api/app.md: "The user's preferred system languages from most preferred to least
        // preferred, including the country codes if applicable" (g_get_language_names on Linux, whose
        // names may read "es_MX"; matchLanguage in src/shared/i18n takes "-" and "_" alike).
        systemLanguages: () => app.getPreferredSystemLanguages(),
      });
      updater?.connect(core.updates);
      return core;
    },
  });
}

try {
  main();
} catch (error) {
  void failStartup(error);
}
