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

const require = createRequire(import.meta.url);

if (process.platform !== 'linux') console.log('the policy watcher on Linux: skipped, this is not Linux');

describe('the policy store in main', () => {
  it('asks nothing of the policy watcher on Linux', async () => {
    expect(await readPolicyStore('linux')).toEqual({});
  });

  it.skipIf(process.platform !== 'linux')('meets a policy watcher that refuses Linux, as its source says', () => {
    const createWatcher = require(POLICY_WATCHER_ADDON) as typeof watcherType;
    expect(() => createWatcher('Adoption Desk', POLICY_DEFINITIONS, () => {})).toThrow('Unsupported platform');
  });
});
