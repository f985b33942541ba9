/**
 * Issue 31.2 (security review 2026-11, finding 2): the scrubber must not be an oracle. Code in
 * the renderer (an XSS, an extension on the browser host's page, a stolen session) calls
 * `hasKey` so that the core reads the key, then sends candidate texts through a channel that
 * answers them back (a profile's name, the safety copy's kept entries) and looks at which come
 * back hidden. When every 8-character piece of a key was hidden, that told it which pieces
 * belong to the key, and it grew them one character at a time. Here the attack runs through
 * the real router with renderer calls only, and must learn nothing: a true piece of a secret
 * comes back exactly as a false piece of the same length does (as itself).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { encodeKeyRecord } from '../../../../electron/core/keys/bound-key';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import type { JournalFs } from '../../../../electron/core/safety-copy/journal-file';
import { closeHtml, formsOf, holdsWhole } from './secret-forms';

const RESOURCES = resolve(import.meta.dirname, '../../../resources');
const LOCAL = 'http://127.0.0.1:9';
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Every printable ASCII character but the space: what a key or a password is typically made of. */
const PRINTABLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('');
/** The wrong guesses: punctuation that ends no form of a key (no letter, digit or base64 character). */
const OTHER = [...'!#$*,;?@^`|'];

/** Node's file system, without fsync: what is tested here is what the core answers, not what survives a crash. */
const journalFs: JournalFs = {
  ...fs,
  open: (async (...args: Parameters<typeof fs.open>) => {
    const handle = await fs.open(...args);
    handle.sync = async () => {};
    return handle;
  }) as JournalFs['open'],
};

describe('the scrubber is no oracle: renderer calls alone learn no part of a secret', () => {
  let dataDir: string;
  let store: MemorySecretStore;
  let core: AppCore;
  const logged: string[] = [];
  let probeId = '';
  const call = (channel: string, input: unknown) => core.router.handle(channel, input);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-oracle-'));
    store = new MemorySecretStore();
    core = await createAppCore({
      // no call reaches a service here: the attack needs none
      fetch: (async () => {
        throw new Error('no network in this test');
      }) as typeof fetch,
      dataDir,
      secretStore: store,
      journalFs,
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: `${LOCAL}/v1`,
      logError: (message) => logged.push(message),
    });
    const probe = await call('saveProfile', { name: 'Probe', baseUrl: 'https://probe.example/v1', color: 'blue' });
    expect(probe).toMatchObject({ ok: true, data: { name: 'Probe' } });
    probeId = (probe as { data: { id: string } }).data.id;
  });

  afterAll(async () => {
    await closeHtml();
    await core.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** What the core answers when asked to save `name` as the probe profile's name. */
  async function echoName(name: string): Promise<unknown> {
    return call('saveProfile', { id: probeId, name, baseUrl: 'https://probe.example/v1', color: 'blue' });
  }

  /**
   * The safety copy as an echo: keeps one animal per candidate and reads them back; the
   * candidates whose name came back other than sent (or all, when the answer was withheld).
   */
  async function altered(candidates: string[]): Promise<string[]> {
    const sent = new Map(candidates.map((name) => [randomUUID(), name]));
    const kept = await call('keepEntries', {
      profileId: 'local',
      batch: randomUUID(),
      complete: true,
      entries: [...sent].map(([localId, name]) => ({
        localId,
        idempotencyKey: randomUUID(),
        animal: { name, categoryId: '1' },
        createdAt: 1,
      })),
    });
    expect(kept).toMatchObject({ ok: true });
    const read = await call('safetyCopy', { profileId: 'local' });
    if (!read.ok) return candidates;
    const back = new Map(
      (read.data as { entries: Array<{ localId: string; animal: { name: string } }> }).entries.map((entry) => [
        entry.localId,
        entry.animal.name,
      ]),
    );
    return [...sent].filter(([localId, name]) => back.get(localId) !== name).map(([, name]) => name);
  }

  /** The safety copy as an echo: the names of animals kept and read back at once (then discarded). */
  async function echoed(names: string[]): Promise<string[]> {
    const ids = names.map(() => randomUUID());
    expect(
      await call('keepEntries', {
        profileId: 'local',
        batch: randomUUID(),
        complete: true,
        entries: names.map((name, i) => ({
          localId: ids[i],
          idempotencyKey: randomUUID(),
          animal: { name, categoryId: '1' },
          createdAt: 1,
        })),
      }),
    ).toMatchObject({ ok: true });
    const read = await call('safetyCopy', { profileId: 'local' });
    expect(read).toMatchObject({ ok: true });
    const entries = (read as { data: { entries: Array<{ localId: string; animal: { name: string } }> } }).data.entries;
    const byId = new Map(entries.map((entry) => [entry.localId, entry.animal.name]));
    for (const localId of ids) await call('settleEntry', { profileId: 'local', localId, outcome: 'discarded' });
    return ids.map((localId) => byId.get(localId) ?? '(missing)');
  }

  /**
   * The review's attack: from what the attacker knows of a secret (`known`, a prefix), it asks
   * for `known`'s last 7 characters plus each candidate character, and keeps the one that comes
   * back hidden; it stops when none does. Returns what it learned beyond `known`.
   */
  async function growFrom(known: string, alphabet: string, maxSteps: number): Promise<string> {
    let learned = '';
    for (let step = 0; step < maxSteps; step += 1) {
      const tail = (known + learned).slice(-7);
      const hits = await altered([...alphabet].map((c) => tail + c));
      if (hits.length !== 1) break;
      learned += hits[0]!.slice(-1);
    }
    return learned;
  }

  it('answers a true piece of a key exactly as a false piece of the same length (2,000 random keys)', async () => {
    let run = 0;
    let wholeAfterAll = 0;
    // a piece for the attacker's step: a window of one form of the key, never the whole form
    const piece = fc.record({
      form: fc.constantFrom(...Object.keys(formsOf('x'))),
      start: fc.nat(),
      length: fc.nat(),
      other: fc.constantFrom(...OTHER),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom(...PRINTABLE.replace('~', '')), minLength: 4, maxLength: 48 }),
        fc.array(piece, { minLength: 1, maxLength: 3 }),
        async (body, pieces) => {
          // Each key ends with its own number, so that no piece of one holds an earlier one whole
          // (the scrubber hides every key it read in this run, and rightly so).
          run += 1;
          const key = `${body}~${run.toString(36).padStart(4, '0')}`;
          // staff saved the key in an earlier session: the core has not read it in this one
          await store.set('local', encodeKeyRecord({ key, origin: LOCAL }));
          expect(await call('hasKey', { profileId: 'local' })).toEqual({ ok: true, data: { hasKey: true } });
          const probes = pieces.flatMap(({ form: name, start, length, other }) => {
            const form = formsOf(key)[name]!;
            const size = 1 + (length % (form.length - 1));
            const at = start % (form.length - size + 1);
            const right = form.slice(at, at + size);
            if (holdsWhole(right, key, { html: true })) {
              wholeAfterAll += 1;
              return [];
            }
            // the attacker's step: the true next character against another one
            return [right, right.slice(0, -1) + other];
          });
          if (probes.length === 0) return;
          const back = await echoed(probes);
          expect(back, key).toEqual(probes);
        },
      ),
      { numRuns: 2000, seed: 3101 },
    );
    expect(run).toBeGreaterThanOrEqual(2000);
    expect(wholeAfterAll, 'windows that were whole forms, not pieces').toBeLessThan(100);
    expect(logged).toEqual([]);
  }, 300_000);

  it('cannot grow a proxy password from the user name that proxyLogins lists', async () => {
    const password = 'S3cretPw!x';
    expect(await call('setProxyLogin', { proxy: 'proxy.example:3128', username: 'jsmith', password })).toMatchObject({
      ok: true,
    });
    const listed = await call('proxyLogins', {});
    expect(listed).toMatchObject({ ok: true, data: { logins: [{ proxy: 'proxy.example:3128', username: 'jsmith' }] } });
    // (on the scrubber of main before issue 31, this learned the whole password, one character a call)
    expect(await growFrom('jsmith:', PRINTABLE, password.length + 1)).toBe('');
    // the review's channel: a profile's name (377 calls were enough on main before issue 31)
    for (let length = 1; length < password.length; length += 1) {
      const name = `jsmith:${password.slice(0, length)}`;
      expect(await echoName(name)).toMatchObject({ ok: true, data: { name } });
    }
  }, 60_000);

  it('cannot grow a key from its public prefix, for 20 random keys', async () => {
    const bodies = fc.sample(fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 32, maxLength: 32 }), {
      numRuns: 20,
      seed: 3114,
    });
    for (const body of bodies) {
      const key = `sk_live_${body}`;
      await store.set('local', encodeKeyRecord({ key, origin: LOCAL }));
      expect(await call('hasKey', { profileId: 'local' })).toEqual({ ok: true, data: { hasKey: true } });
      // (on the scrubber of main before issue 31, this learned all 32 characters in 32 calls)
      expect(await growFrom('sk_live_', ALNUM, 33), key).toBe('');
      // and no window of the every-byte percent form (the review's way in for any key) comes back hidden
      const everyByte = formsOf(key).everyByte!;
      const windows = Array.from({ length: everyByte.length - 8 }, (_, i) => everyByte.slice(i, i + 8));
      expect(await altered(windows)).toEqual([]);
    }
  }, 60_000);
});
