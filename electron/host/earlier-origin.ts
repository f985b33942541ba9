/**
 * An update strands the queue (issue 31, item 10). Until 884740d the browser host served the app at
 * `http://127.0.0.1:PORT`, since then at `http://<name>.localhost:PORT`. The browser keeps the
 * queue (the outbox) in IndexedDB, which is per origin, so what an earlier version left waiting
 * stayed where the new address cannot read it; the versions before 3b4e8f1 kept it nowhere else.
 * This recovers such a queue once per data folder, in the staff member's own browser:
 *
 * 1. At start (`planEarlierRecovery`), the data folder says whether an earlier version may have
 *    left one: `browser-host.json` of version 1 (127.0.0.1 only: the earlier version was the last
 *    to run here, `certain`), or of version 2 without `earlier-version.json` (a version at the new
 *    name but without this recovery ran meanwhile; it may have sent some of those animals from its
 *    safety copy already, so every recovered entry comes back in doubt and the outbox's doubt rules
 *    decide, never a blind resend). A data folder new to the host has nothing to recover.
 * 2. The first launch link redeemed while a recovery is pending (server.ts) answers with a redirect
 *    to a one-time page at the earlier origin, `http://127.0.0.1:PORT/earlier-version?token=…`: a
 *    32-byte token minted for the session that launch created, good for two minutes and one hand
 *    over. That page alone, its script and its POST are served at 127.0.0.1; every other request
 *    there is refused as before (Host, Origin, CSP unchanged).
 * 3. The page's script (`EARLIER_PAGE_SCRIPT`) reads every `adoption-desk.<profile>` database of
 *    that origin with plain IndexedDB (the earlier Dexie schemas are all an `outbox` store keyed by
 *    `localId`) and posts the rows. The host parses them (`EarlierRow`), keeps the unsent ones in the
 *    profile's safety copy (`AppCore.recoverEntries`: each once, with its own idempotency key, on
 *    disk before it answers; one the journal already has is not kept again), writes rows it cannot
 *    read to a file in the data folder, and marks the recovery done. Only then does the page delete
 *    those rows from the earlier origin (and the database, when nothing of staff's own is left in
 *    it), and go on to the app through a fresh launch link.
 * 4. The window at the new address restores the entries from the safety copy as it does after any
 *    loss (src/two-copies/restore.ts) and says "3 animals from the earlier version were recovered …".
 *
 * Why a page at the earlier origin, and at launch: only a page of that origin can read its
 * IndexedDB, and only as a top-level page (a frame of it inside the app would get a partitioned,
 * empty storage); at launch no window of this version has read its queue yet, so the first one
 * finds the animals already in the safety copy.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { NewAnimal } from '../../src/shared/records/animal';
import { type Clock, systemClock } from '../../src/shared/basics/clock';
import { errorMessage } from '../../src/shared/basics/errors';
import { currentLanguage, intlLocale, t } from '../../src/shared/i18n';
import {
  BodyTooLarge,
  nodeSettingsFs,
  readCapped,
  type RecoveredEntry,
  type RecoverReport,
  writeFileAtomic,
} from '../core';
import type { RememberedAddress } from './host-port';
import { LAUNCH_LINK_TTL_MS } from './launch-session';
import { SECURITY_HEADERS, sendPlain } from './static-files';

export const EARLIER_STATE_FILE = 'earlier-version.json';
/** Rows of an earlier queue the host could not read or place, kept as they were. */
export const EARLIER_SET_ASIDE_DIR = 'earlier-version';
export const EARLIER_PAGE_PATH = '/earlier-version';
export const EARLIER_SCRIPT_PATH = '/earlier-version.js';
/** An earlier queue can be large (imports of 5,000 rows); the page posts it in one body. */
export const MAX_HANDOVER_BYTES = 32 * 1024 * 1024;
/** Looks at the earlier origin that found nothing (or failed) before the recovery stops looking. */
export const MAX_LOOKS = 3;
const DB_PREFIX = 'adoption-desk.';

const EarlierState = z.object({
  version: z.literal(1),
  state: z.enum(['pending', 'done']),
  /** The earlier origin's port, `http://127.0.0.1:<port>`. */
  port: z.number().int().min(0).max(65535),
  /** No version at the new name ran here before: an entry the safety copy lacks was never sent from it. */
  certain: z.boolean(),
  looks: z.number().int().nonnegative(),
  recovered: z.number().int().nonnegative().optional(),
});
export type EarlierState = z.infer<typeof EarlierState>;

async function readState(dataDir: string): Promise<EarlierState | null> {
  try {
    const parsed = EarlierState.safeParse(
      JSON.parse(await nodeSettingsFs.readFile(join(dataDir, EARLIER_STATE_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function writeState(dataDir: string, state: EarlierState): Promise<void> {
  await nodeSettingsFs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(nodeSettingsFs, join(dataDir, EARLIER_STATE_FILE), `${JSON.stringify(state)}\n`);
}

/**
 * Whether this data folder may hold an earlier version's queue to recover, decided (and written)
 * before the host rewrites `browser-host.json`, so that a crash in between decides the same again.
 */
export async function planEarlierRecovery(
  dataDir: string,
  remembered: RememberedAddress | null,
): Promise<EarlierState> {
  const known = await readState(dataDir);
  if (known) return known;
  const state: EarlierState =
    remembered === null
      ? // A data folder new to the browser host: no earlier address ever held a queue of it.
        { version: 1, state: 'done', port: 0, certain: true, looks: 0 }
      : { version: 1, state: 'pending', port: remembered.port, certain: remembered.site === null, looks: 0 };
  await writeState(dataDir, state);
  return state;
}

/** An outbox row as any earlier version stored it (Dexie versions 1–7); other fields are ignored. */
const EarlierRow = z.object({
  localId: z.union([z.string().min(1), z.number()]),
  idempotencyKey: z.uuid().optional(),
  pet: NewAnimal,
  createdAt: z.number(),
  state: z.enum(['queued', 'sending', 'sent', 'needs_attention', 'check_needed']),
  seq: z.number().optional(),
  doubtSince: z.number().nullable().optional(),
  /** Before Dexie version 4: a send may have reached the service. */
  unknownOutcome: z.boolean().optional(),
});

const Handover = z.union([
  z.object({ token: z.string().max(100), failed: z.string().max(2000) }),
  z.object({
    token: z.string().max(100),
    databases: z
      .array(
        z.object({
          name: z.string().regex(/^adoption-desk\.[a-z0-9][a-z0-9-]{0,39}$/),
          rows: z.array(z.unknown()).max(200_000),
        }),
      )
      .max(200),
  }),
]);

/** The answer to the page's hand over: where to go next, and which rows of which database to delete. */
export interface HandoverAnswer {
  back: string;
  /** The primary keys (`localId`) of the rows now on this computer's disk, per database. */
  clear?: Record<string, unknown[]>;
  recovered?: number;
  /** Nothing was kept (the page says this and offers `back`). */
  error?: string;
}

export interface EarlierRecoveryOptions {
  dataDir: string;
  /** A pending state from `planEarlierRecovery`. */
  state: EarlierState;
  core: { recoverEntries(profileId: string, entries: readonly RecoveredEntry[]): Promise<RecoverReport | null> };
  /** `monotonic()` for the links' lifetime, `now()` to name the files kept. */
  clock?: Pick<Clock, 'now' | 'monotonic'>;
  logError: (message: string) => void;
}

/** What the recovery needs of the host serving it. */
export interface RecoveryHost {
  /** A fresh one-time launch link at the host's own address (the way back to the app). */
  newLaunchUrl(): string;
  /** Whether a session (by its SHA-256) is one the host gave and still knows. */
  knowsSession(sessionDigest: string): boolean;
}

const digest = (value: string): string => createHash('sha256').update(value).digest('hex');

interface Token {
  until: number;
  session: string;
}

export class EarlierQueueRecovery {
  readonly port: number;
  #state: EarlierState;
  readonly #tokens = new Map<string, Token>();
  /** Digests of the launch secrets handed back by the page: redeeming one never starts a recovery again. */
  readonly #returning = new Set<string>();
  readonly #clock: Pick<Clock, 'now' | 'monotonic'>;
  #busy = false;

  constructor(private readonly options: EarlierRecoveryOptions) {
    this.#state = options.state;
    this.port = options.state.port;
    this.#clock = options.clock ?? systemClock;
  }

  /** Whether a launch should go through the earlier origin first. */
  pending(): boolean {
    return this.#state.state === 'pending';
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The one-time recovery page for the session a launch link just created. */
  startUrl(session: string): string {
    const now = this.#clock.monotonic();
    for (const [key, token] of this.#tokens) if (token.until <= now) this.#tokens.delete(key);
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(digest(token), { until: now + LAUNCH_LINK_TTL_MS, session: digest(session) });
    return `${this.origin}${EARLIER_PAGE_PATH}?token=${token}`;
  }

  /** Whether `secret` is a launch link this recovery handed back (the way back to the app). */
  isReturn(secret: string): boolean {
    return this.#returning.has(digest(secret));
  }

  /** Whether the request is for this recovery: the earlier origin's Host and one of its paths. */
  answers(request: IncomingMessage): boolean {
    if (request.headers.host?.toLowerCase() !== `127.0.0.1:${this.port}`) return false;
    const path = new URL(request.url ?? '/', 'http://host.invalid').pathname;
    return path === EARLIER_PAGE_PATH || path === EARLIER_SCRIPT_PATH;
  }

  async handle(request: IncomingMessage, response: ServerResponse, host: RecoveryHost): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const origin = request.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== this.origin) {
      return sendPlain(response, 403, 'Forbidden: foreign Origin');
    }
    const method = request.method ?? 'GET';
    if (url.pathname === EARLIER_PAGE_PATH && method === 'POST') return this.#handover(request, response, host);
    if (method !== 'GET') return sendPlain(response, 405, t('host.useGet'));
    const token = url.searchParams.get('token') ?? '';
    if (!this.#valid(token)) return sendPlain(response, 403, t('host.earlierLinkUsed'));
    if (url.pathname === EARLIER_SCRIPT_PATH) {
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      return void response.end(EARLIER_PAGE_SCRIPT);
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    response.end(earlierPage(token));
  }

  #valid(token: string): Token | null {
    const found = this.#tokens.get(digest(token));
    return found && found.until > this.#clock.monotonic() ? found : null;
  }

  async #handover(request: IncomingMessage, response: ServerResponse, host: RecoveryHost): Promise<void> {
    if (originOf(request) !== this.origin) return sendPlain(response, 403, 'Forbidden: foreign Origin');
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendPlain(response, 415, t('host.bodyNotJsonType'));
    }
    let text: string;
    try {
      text = await readCapped(Readable.toWeb(request) as ReadableStream<Uint8Array>, MAX_HANDOVER_BYTES, {
        drain: true,
      });
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendPlain(response, 413, t('host.bodyTooLarge'));
      throw error;
    }
    let body: z.infer<typeof Handover>;
    try {
      body = Handover.parse(JSON.parse(text));
    } catch {
      return sendPlain(response, 400, t('host.bodyNotJson'));
    }
    // One hand over per token, for a session the host still knows; one at a time.
    const key = digest(body.token);
    const token = this.#valid(body.token);
    if (!token || !host.knowsSession(token.session) || this.#busy) {
      return sendPlain(response, 403, t('host.earlierLinkUsed'));
    }
    this.#tokens.delete(key);
    const back = host.newLaunchUrl();
    this.#returning.add(digest(new URL(back).searchParams.get('launch') ?? ''));
    this.#busy = true;
    try {
      const answer = 'failed' in body ? await this.#failed(body.failed, back) : await this.#keep(body.databases, back);
      sendJson(response, answer);
    } finally {
      this.#busy = false;
    }
  }

  async #failed(reason: string, back: string): Promise<HandoverAnswer> {
    this.options.logError(`browser host: the earlier version's queue could not be read in the browser (${reason})`);
    await this.#looked(false);
    return { back, error: t('host.earlierFailed') };
  }

  async #keep(databases: Array<{ name: string; rows: unknown[] }>, back: string): Promise<HandoverAnswer> {
    const clear: Record<string, unknown[]> = {};
    let recovered = 0;
    try {
      for (const database of databases) {
        const profileId = database.name.slice(DB_PREFIX.length);
        const { entries, settled, unreadable } = this.#read(database.rows);
        const report =
          entries.length > 0
            ? await this.options.core.recoverEntries(
                profileId,
                entries.map(({ localId, idempotencyKey, animal, createdAt, inDoubt }) => ({
                  localId,
                  idempotencyKey,
                  animal,
                  createdAt,
                  inDoubt,
                })),
              )
            : null;
        // A profile this version does not have (removed meanwhile): its rows are kept as they were.
        const placed = entries.length === 0 || report !== null;
        const asItWas = placed ? unreadable : [...unreadable, ...entries.map((entry) => entry.raw)];
        if (asItWas.length > 0) await this.#setAside(profileId, asItWas, placed ? 'unreadable' : 'no such profile');
        recovered += report?.kept ?? 0;
        // On this computer's disk now: in the safety copy, in the file set aside, or sent long ago.
        const kept = placed ? entries.map((entry) => entry.key) : [];
        clear[database.name] = [...settled, ...kept, ...asItWas.map(keyOf)].filter((key) => key !== undefined);
      }
      await this.#looked(databases.length > 0, recovered);
    } catch (error) {
      this.options.logError(`browser host: the earlier version's queue could not be kept (${errorMessage(error)})`);
      return { back, error: t('host.earlierFailed') };
    }
    return { back, clear, recovered };
  }

  #read(rows: unknown[]): {
    entries: Array<RecoveredEntry & { key: unknown; raw: unknown }>;
    settled: unknown[];
    unreadable: unknown[];
  } {
    const unsent: Array<{ row: z.infer<typeof EarlierRow>; raw: unknown }> = [];
    const settled: unknown[] = [];
    const unreadable: unknown[] = [];
    for (const raw of rows) {
      const parsed = EarlierRow.safeParse(raw);
      if (!parsed.success) unreadable.push(raw);
      else if (parsed.data.state === 'sent') settled.push(parsed.data.localId);
      else unsent.push({ row: parsed.data, raw });
    }
    unsent.sort((a, b) => (a.row.seq ?? a.row.createdAt) - (b.row.seq ?? b.row.createdAt));
    const uuid = z.uuid();
    const entries = unsent.map(({ row, raw }) => ({
      localId: typeof row.localId === 'string' && uuid.safeParse(row.localId).success ? row.localId : randomUUID(),
      // The entry's own key, so that a service that keeps keys never creates it twice.
      idempotencyKey: row.idempotencyKey ?? randomUUID(),
      animal: row.pet,
      createdAt: row.createdAt,
      inDoubt:
        !this.#state.certain ||
        row.state === 'sending' ||
        row.state === 'check_needed' ||
        (row.doubtSince ?? null) !== null ||
        row.unknownOutcome === true,
      key: row.localId,
      raw,
    }));
    return { entries, settled, unreadable };
  }

  async #setAside(profileId: string, rows: unknown[], reason: string): Promise<void> {
    const folder = join(this.options.dataDir, EARLIER_SET_ASIDE_DIR);
    await nodeSettingsFs.mkdir(folder, { recursive: true, mode: 0o700 });
    const file = join(folder, `${profileId}-${this.#clock.now()}.json`);
    await writeFileAtomic(nodeSettingsFs, file, `${JSON.stringify({ profileId, reason, rows }, null, 2)}\n`);
    this.options.logError(
      `browser host: ${rows.length} record(s) of the earlier version's queue of ${profileId} could not be ` +
        `recovered (${reason}); they are kept as they were in ${file}`,
    );
  }

  /** Records a look at the earlier origin: done once it found the earlier databases, or after `MAX_LOOKS` looks. */
  async #looked(found: boolean, recovered = 0): Promise<void> {
    const looks = this.#state.looks + 1;
    const done = found || looks >= MAX_LOOKS;
    const next: EarlierState = { ...this.#state, looks, state: done ? 'done' : 'pending', recovered };
    await writeState(this.options.dataDir, next);
    this.#state = next;
  }
}

const originOf = (request: IncomingMessage): string | undefined => request.headers.origin?.toLowerCase();

const keyOf = (raw: unknown): unknown => (raw as { localId?: unknown } | null)?.localId;

function sendJson(response: ServerResponse, body: HandoverAnswer): void {
  const text = JSON.stringify(body);
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page at the earlier origin: words, a status line, and the script (no inline script: the CSP holds). */
function earlierPage(token: string): string {
  // JSON inside a data block: `<` escaped so that no text can end the element.
  const words = JSON.stringify({
    failed: t('host.earlierFailed'),
    noAnswer: t('host.earlierNoAnswer'),
  }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="${intlLocale(currentLanguage())}">
<head><meta charset="utf-8"><title>${escapeHtml(t('host.earlierTitle'))}</title>
<script type="application/json" id="words">${words}</script>
<script src="${EARLIER_SCRIPT_PATH}?token=${encodeURIComponent(token)}" defer></script></head>
<body>
<h1>${escapeHtml(t('host.earlierTitle'))}</h1>
<p id="status" role="status">${escapeHtml(t('host.earlierWorking'))}</p>
<p id="next" hidden><a id="continue">${escapeHtml(t('host.continueToApp'))}</a></p>
</body>
</html>
`;
}

/**
 * The page's script, run at the earlier origin (plain JavaScript, no build step: the page is the
 * host's, not the renderer's). It reads every `adoption-desk.*` database's `outbox` store, hands the
 * rows over, deletes what the host says is now on disk, and goes on to the app.
 */
export const EARLIER_PAGE_SCRIPT = `'use strict';
(() => {
  const token = new URL(document.currentScript.src).searchParams.get('token');
  const words = JSON.parse(document.getElementById('words').textContent);
  const status = document.getElementById('status');
  const next = document.getElementById('next');
  const link = document.getElementById('continue');
  const PREFIX = ${JSON.stringify(DB_PREFIX)};
  const done = (request) =>
    new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const finished = (tx) =>
    new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error || new Error('the transaction was aborted'));
    });
  // Opens a database as it is; never creates one (a database gone meanwhile is left gone).
  const open = (name) => {
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => request.transaction.abort();
    return done(request);
  };
  const post = async (body) => {
    const response = await fetch(${JSON.stringify(EARLIER_PAGE_PATH)}, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, ...body }),
    });
    const answer = await response.json().catch(() => null);
    if (!answer || typeof answer.back !== 'string') throw new Error(words.noAnswer);
    return answer;
  };
  const stop = (message, back) => {
    status.textContent = message;
    if (back) {
      link.href = back;
      next.hidden = false;
    }
  };
  const read = async () => {
    const found = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name || !info.name.startsWith(PREFIX)) continue;
      const db = await open(info.name);
      try {
        if (!db.objectStoreNames.contains('outbox')) continue;
        found.push({ name: info.name, rows: await done(db.transaction('outbox').objectStore('outbox').getAll()) });
      } finally {
        db.close();
      }
    }
    return found;
  };
  // Deletes the rows now on the host's disk; the whole database when nothing of staff's own is left.
  const clear = async (name, keys) => {
    const db = await open(name);
    let empty = false;
    try {
      const stores = ['outbox', 'categories', 'setAside', 'quarantine'].filter((store) =>
        db.objectStoreNames.contains(store),
      );
      const tx = db.transaction(stores, 'readwrite', { durability: 'strict' });
      for (const key of keys) tx.objectStore('outbox').delete(key);
      const counts = await Promise.all(stores.map((store) => done(tx.objectStore(store).count())));
      await finished(tx);
      empty = counts.every((count) => count === 0);
    } finally {
      db.close();
    }
    if (!empty) return;
    // A tab of the earlier version still open holds the database: its Dexie closes it on this
    // request's versionchange; should it not, the deletion waits in the browser, not this page.
    const request = indexedDB.deleteDatabase(name);
    await new Promise((resolve, reject) => {
      request.onsuccess = request.onblocked = () => resolve();
      request.onerror = () => reject(request.error);
    });
  };
  (async () => {
    let answer;
    try {
      answer = await post({ databases: await read() });
    } catch (error) {
      let back = null;
      try {
        back = (await post({ failed: String(error && error.message ? error.message : error) })).back;
      } catch {}
      stop(words.failed, back);
      return;
    }
    if (answer.error) return stop(answer.error, answer.back);
    try {
      for (const [name, keys] of Object.entries(answer.clear || {})) await clear(name, keys);
    } catch {
      // Kept on the host's disk already: only the earlier copy stays behind, and is never read again.
    }
    location.replace(answer.back);
  })();
})();
`;
