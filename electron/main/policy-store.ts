/**
 * The operating system's policy store on Windows and macOS, read once at start with
 * `@vscode/policy-watcher` (the reader VS Code uses: src/vs/platform/policy/node/nativePolicyService.ts
 * awaits the first callback in the same way). What it reads, from its source (v1.5.0):
 * - Windows (src/windows/RegistryPolicy.hh): each value under `HKEY_LOCAL_MACHINE\<registryPath>`,
 *   else under `HKEY_CURRENT_USER\<registryPath>` (REG_SZ or REG_MULTI_SZ for a string); both
 *   `SOFTWARE\Policies` keys are writable by administrators only.
 * - macOS (src/macos/PreferencesPolicy.hh): a key only when `CFPreferencesAppValueIsForced`, i.e.
 *   set by a configuration profile (MDM), never what a user wrote with `defaults write`.
 * - Linux: its `createWatcher` throws "Unsupported platform" (src/main.cc); the core reads
 *   `/etc/adoption-desk/policies/` itself (electron/core/managed-settings/policy-folder.ts).
 * The first callback comes once every policy was read, set or not, and holds only those set
 * (OnProgress in src/windows/PolicyWatcher.cc and src/macos/PolicyWatcher.cc). Only the glue is
 * here; the names and what they mean live in the core. Checked by reading: these paths run on
 * Windows and macOS only.
 */
import type { createWatcher } from '@vscode/policy-watcher';
import { createRequire } from 'node:module';
import { MAC_POLICY_DOMAIN, POLICY_DEFINITIONS, POLICY_NAMES, type PolicyValues, WINDOWS_POLICY_KEY } from '../core';

/** How long the first reading may take before the app starts without it (and says so). */
export const POLICY_READ_TIMEOUT_MS = 10_000;

/**
 * The addon itself: its exports are `createWatcher` (src/main.cc, `Init`). Loaded directly rather
 * than through the package's index.js, which finds it with `bindings` (a search by stack trace);
 * electron-builder.yml packs this file, unpacked beside app.asar as native code must be.
 */
export const POLICY_WATCHER_ADDON = '@vscode/policy-watcher/build/Release/vscode-policy-watcher.node';

type CreateWatcher = typeof createWatcher;

export async function readPolicyStore(platform: NodeJS.Platform): Promise<PolicyValues> {
  if (platform !== 'win32' && platform !== 'darwin') return {};
  const watch = createRequire(import.meta.url)(POLICY_WATCHER_ADDON) as CreateWatcher;
  return new Promise<PolicyValues>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      watcher.dispose();
      reject(new Error(`no answer within ${POLICY_READ_TIMEOUT_MS / 1000} s`));
    }, POLICY_READ_TIMEOUT_MS);
    const watcher = watch(
      platform === 'darwin' ? MAC_POLICY_DOMAIN : 'Adoption Desk',
      POLICY_DEFINITIONS,
      (update) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Read at start only: stop watching once the first reading is in (after this callback returns).
        setImmediate(() => watcher.dispose());
        const values: PolicyValues = {};
        for (const name of POLICY_NAMES) {
          const value = update[name];
          if (typeof value === 'string') values[name] = value;
        }
        resolve(values);
      },
      platform === 'win32' ? { registryPath: WINDOWS_POLICY_KEY } : undefined,
    );
  });
}
