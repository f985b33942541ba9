/**
 * Whether and from where the installed app updates itself, as the organisation says (issue 21,
 * item 4; issue 30): its policies over its profiles.json, an address that could not be used
 * switching updates off with a sentence, and nothing said meaning no updates.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { organisationSettings } from '../../../../electron/core/managed-settings';
import { ProfileRegistry } from '../../../../electron/core/profiles';
import { readUpdateSettings } from '../../../../electron/core/updates';
import { onlyOn } from '../../../support/platform';

const NAME = 'The settings in /etc/adoption-desk/profiles.json';
/** A policy file of the Linux policy folder is read only with POSIX owners and modes. */
const posixIt = it.skipIf(onlyOn(['linux', 'darwin'], 'POSIX owners and modes of real files (Windows: 0666, uid 0)'));

describe('update settings', () => {
  const installed = { sourceName: NAME, development: false };

  it('off when the organisation says so; its own address when it gives one', () => {
    expect(readUpdateSettings({ enabled: false }, installed).settings).toEqual({
      enabled: false,
      reason: 'Your organisation switched updates off.',
    });
    expect(readUpdateSettings({ url: 'https://updates.example.org/adoption-desk' }, installed)).toEqual({
      settings: { enabled: true, feedUrl: 'https://updates.example.org/adoption-desk/' },
      problems: [],
    });
  });

  it('off without the organisation’s address: never an address the installer was built with', () => {
    const none = readUpdateSettings(undefined, installed);
    expect(none.settings).toMatchObject({
      enabled: false,
      reason: expect.stringContaining('No update address is set'),
    });
    expect(none.problems).toEqual([]);
    expect(readUpdateSettings({ enabled: true }, installed).settings.enabled).toBe(false);
  });

  it('never fetches the app from an address nobody meant: plain http elsewhere, a login inside, a wrong form', () => {
    for (const url of ['http://updates.example.org/', 'https://user:pw@updates.example.org/', 'not an address']) {
      const read = readUpdateSettings({ url }, installed);
      expect(read.settings.enabled, url).toBe(false);
      expect(read.problems[0], url).toMatch(/^The settings in .*: the update address .*; updates are off\.$/);
    }
    const wrong = readUpdateSettings({ enabled: 'maybe' }, installed);
    expect(wrong.settings.enabled).toBe(false);
    expect(wrong.problems[0]).toContain('the updates settings are not in the expected form');
  });

  it('plain http on this computer only in a development build: the installed app would take its code from whoever holds the port', () => {
    for (const url of ['http://127.0.0.1:4011/feed', 'http://localhost:4011/', 'http://[::1]:4011/']) {
      const read = readUpdateSettings({ url }, installed);
      expect(read.settings.enabled, url).toBe(false);
      expect(read.problems, url).toEqual([`${NAME}: the update address must use https://; updates are off.`]);
    }
    expect(readUpdateSettings({ url: 'http://127.0.0.1:4011/feed' }, { sourceName: NAME, development: true })).toEqual({
      settings: { enabled: true, feedUrl: 'http://127.0.0.1:4011/feed/' },
      problems: [],
    });
  });
});

describe('update settings from the organisation’s policies and files', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'adoption-updates-'));
    chmodSync(base, 0o755);
    mkdirSync(join(base, 'policies'), { mode: 0o755 });
    mkdirSync(join(base, 'data'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  async function updatesOf(policy: Record<string, string> | null, packaged: unknown) {
    if (policy) {
      writeFileSync(join(base, 'policies', 'a.json'), JSON.stringify(policy));
      chmodSync(join(base, 'policies', 'a.json'), 0o644);
    }
    writeFileSync(join(base, 'profiles.json'), JSON.stringify(packaged));
    const source = await organisationSettings({
      platform: 'linux',
      env: {},
      packagedFile: join(base, 'profiles.json'),
      linuxPolicyFolder: join(base, 'policies'),
      machineFile: join(base, 'none.json'),
      posix: { trustedUids: [0, process.getuid?.() ?? 0] },
    });
    const store = await ProfileRegistry.open({ dataDir: join(base, 'data'), builtIns: source });
    const { block, sourceName } = store.organisationUpdates;
    return {
      addresses: store.list().profiles.map((p) => p.baseUrl),
      ...readUpdateSettings(block, { sourceName, development: false }),
    };
  }

  const packaged = {
    version: 1,
    production: { baseUrl: 'https://adopt.example.org/v1' },
    staging: { baseUrl: null },
    updates: { url: 'https://updates.example.org/' },
  };

  it('takes the packaged file’s updates block', async () => {
    const read = await updatesOf(null, packaged);
    expect(read.settings).toEqual({ enabled: true, feedUrl: 'https://updates.example.org/' });
  });

  posixIt('a policy that only switches updates off leaves the addresses where they were', async () => {
    const read = await updatesOf({ UpdateMode: 'off' }, packaged);
    expect(read.settings).toEqual({ enabled: false, reason: 'Your organisation switched updates off.' });
    expect(read.addresses[0]).toBe('https://adopt.example.org/v1');
  });

  posixIt('a policy’s feed address wins over the file’s', async () => {
    const read = await updatesOf({ UpdateFeedUrl: 'https://mirror.example.org/ad' }, packaged);
    expect(read.settings).toEqual({ enabled: true, feedUrl: 'https://mirror.example.org/ad/' });
  });

  posixIt('an update mode other than on or off switches updates off, and says so', async () => {
    const read = await updatesOf({ UpdateMode: 'sometimes' }, packaged);
    expect(read.settings.enabled).toBe(false);
    expect(read.problems[0]).toContain('the updates settings are not in the expected form');
  });
});
