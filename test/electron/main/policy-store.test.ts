/**
 * The policy store's glue in main (issue 22). `@vscode/policy-watcher` reads the registry and
 * managed preferences on Windows and macOS only; on Linux the package itself refuses, so the app
 * never calls it there and reads /etc/adoption-desk/policies/ in the core instead.
 */
import type { createWatcher as watcherType } from '@vscode/policy-watcher';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { POLICY_DEFINITIONS } from '../../../electron/core';
import { POLICY_WATCHER_ADDON, readPolicyStore } from '../../../electron/main/policy-store';
import { onlyOn } from '../../support/platform';

const require = createRequire(import.meta.url);

const onLinux = onlyOn(['linux'], 'the policy watcher refusing Linux can be met on Linux only');
const withPolicyStore = onlyOn(
  ['win32', 'darwin'],
  'the registry and managed preferences exist on Windows and macOS only',
);

describe('the policy store in main', () => {
  it('asks nothing of the policy watcher on Linux', async () => {
    expect(await readPolicyStore('linux')).toEqual({});
  });

  it.skipIf(onLinux)('meets a policy watcher that refuses Linux, as its source says', () => {
    const createWatcher = require(POLICY_WATCHER_ADDON) as typeof watcherType;
    expect(() => createWatcher('Adoption Desk', POLICY_DEFINITIONS, () => {})).toThrow('Unsupported platform');
  });

  // The real store of the machine: no Adoption Desk policy is set on a CI runner. The watcher's first
  // callback comes whether or not anything is set (src/macos/PolicyWatcher.cc and
  // src/windows/PolicyWatcher.cc, `if (first || …) progress.Send(…)`), so this answers at once.
  it.skipIf(withPolicyStore)('reads this system’s policy store: nothing set, nothing taken', async () => {
    expect(await readPolicyStore(process.platform)).toEqual({});
  });
});
