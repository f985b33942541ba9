/**
 * What is checked, against what staff were told (ledger.ts) and what is really so (the service's
 * creations, each computer's IndexedDB and the journal as a power cut would leave it):
 * - lost: an animal the app said was saved is in none of the service, the queue (IndexedDB) or
 *   the fsynced safety copy (after every step, so after every crash);
 * - sent twice: two creations on the service from one entry (its Idempotency-Key), which staff
 *   did not choose ("send mine" while theirs was there but not shown);
 * - untrue screens: what each window's stores hold for its components (the queue, each entry's
 *   state and id, the sync indicator's and panel's progress, reachability, the key) differs from
 *   what is so;
 * - waits: at the end of the day, once everything is up long enough, an entry still waits, or an
 *   animal told saved is not on the service exactly once;
 * - key: the API key in a log line, an event or answer that left the core, a byte written to the
 *   disk, IndexedDB or localStorage.
 */
import { decodeJournal } from '../../../electron/core/safety-copy/journal-file';
import { JournalRecord, SafetyCopy } from '../../../electron/core/safety-copy/safety-copy';
import { OutboxRowSchema, type OutboxRow } from '../../../src/storage/outbox-records';
import { Disk } from '../world/disk';
import type { SimDevice } from '../world/device';
import { DB_NAME_PREFIX } from '../world/indexeddb';
import { Rng } from '../world/rng';
import type { Day } from './day';
import { creationsByKey } from './ledger';

export type FindingKind = 'lost' | 'twice' | 'untrue' | 'waits' | 'key';

export interface Finding {
  kind: FindingKind;
  text: string;
}

/** A day that broke a promise: its findings, and what happened before. */
export class DayFailed extends Error {
  override name = 'DayFailed';
  readonly findings: Finding[];

  constructor(findings: Finding[], day: Day) {
    const lines = findings.slice(0, 12).map((finding) => `  ${finding.kind}: ${finding.text}`);
    const tail = day.log.slice(-60).map((line) => `    ${line}`);
    super(`${findings.length} finding(s):\n${lines.join('\n')}\n  what happened (last steps):\n${tail.join('\n')}`);
    this.findings = findings;
  }
}

export async function findingsOf(day: Day, checker: (day: Day) => Promise<Finding[]>): Promise<Finding[]> {
  return checker(day);
}

/** The outbox rows of a profile's database on a computer (raw), or [] when it has none. */
function outboxRows(device: SimDevice, profileId: string): unknown[] {
  return device.browser.rows(`${DB_NAME_PREFIX}${profileId}`, 'outbox') ?? [];
}

function validRows(rows: unknown[]): OutboxRow[] {
  return rows.flatMap((row) => {
    const parsed = OutboxRowSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}

const localIdOf = (row: unknown): unknown => (row as { localId?: unknown } | null)?.localId;

/** The last journal read per computer and profile: its fsynced text and its open entries. */
const journalReads = new WeakMap<SimDevice, Map<string, { text: string; open: Set<string> }>>();

/** The open entries of a profile's safety copy as they would be read after a power cut now. */
async function journalOpen(device: SimDevice, profileId: string): Promise<Set<string>> {
  const files = device.disk.durableFiles();
  const text = [...files].map(([path, content]) => `${path}\n${content}`).join('\n');
  const reads = journalReads.get(device) ?? new Map<string, { text: string; open: Set<string> }>();
  journalReads.set(device, reads);
  const known = reads.get(profileId);
  if (known?.text === text) return known.open;
  const open = await readJournal(device, profileId, files);
  reads.set(profileId, { text, open });
  return open;
}

/** The product's own reading of the journal (SafetyCopy.read) over a copy of the fsynced files. */
async function readJournal(device: SimDevice, profileId: string, files: Map<string, string>): Promise<Set<string>> {
  const copy = Disk.of(files, new Rng(0));
  const safety = new SafetyCopy({
    dataDir: device.dataDir,
    clock: { now: () => 0 },
    fs: copy.view({ name: 'check', dead: false }).asJournalFs(),
  });
  const read = await safety.read(profileId);
  return new Set(read.entries.map((entry) => entry.localId));
}

function lostAndTwice(day: Day, truth: Truth): Finding[] {
  const findings: Finding[] = [];
  const byKey = creationsByKey(day.world.service);
  for (const told of day.ledger.owed()) {
    const onService = (byKey.get(told.idempotencyKey)?.length ?? 0) > 0 || told.confirmedId !== null;
    if (onService) continue;
    const key = `${told.computer}/${told.profileId}`;
    if (truth.rows.get(key)?.has(told.localId) || truth.journal.get(key)?.has(told.localId)) continue;
    findings.push({
      kind: 'lost',
      text: `${told.name} (${told.localId.slice(0, 8)}, said saved on ${told.computer} at ${(told.at / 1000).toFixed(1)} s) is not on the service, not in IndexedDB, not in the fsynced safety copy`,
    });
  }
  const keys = new Map<string, string>();
  for (const device of day.devices)
    for (const entry of device.traffic.kept.values()) keys.set(entry.idempotencyKey, entry.animal.name);
  for (const [key, creations] of byKey) {
    if (!keys.has(key)) {
      findings.push({
        kind: 'twice',
        text: `the service holds ${creations.length} animal(s) no entry of the app accounts for (key ${key})`,
      });
      continue;
    }
    if (creations.length < 2) continue;
    const told = [...day.ledger.told.values()].find((entry) => entry.idempotencyKey === key);
    if (told?.staffSentAgain) continue;
    findings.push({
      kind: 'twice',
      text: `${keys.get(key)} was created ${creations.length} times (${creations.map((c) => `${c.animal.id} by ${c.computer} at ${((c.at - day.loop.serviceBase) / 1000).toFixed(1)} s`).join(', ')})`,
    });
  }
  return findings;
}

interface Truth {
  /** `computer/profile` → the outbox rows in IndexedDB, by localId. */
  rows: Map<string, Map<string, unknown>>;
  /** `computer/profile` → the open entries of the fsynced safety copy. */
  journal: Map<string, Set<string>>;
}

/**
 * What each computer has ever shown as sent (IndexedDB) and its safety copy ever acknowledged on
 * disk, by entry: an entry both once were is on the service, and the app knew it; it must never
 * come back to the queue (restore.ts: "an acknowledged entry is never put back").
 */
const confirmed = new WeakMap<SimDevice, { sent: Set<string>; acknowledged: Set<string> }>();

function confirmedOf(device: SimDevice): { sent: Set<string>; acknowledged: Set<string> } {
  let seen = confirmed.get(device);
  if (!seen) confirmed.set(device, (seen = { sent: new Set(), acknowledged: new Set() }));
  return seen;
}

/** The entries the fsynced journals of a computer acknowledge now (read with the journal's own decoding). */
function acknowledgedOnDisk(device: SimDevice): string[] {
  const ids: string[] = [];
  for (const [path, text] of device.disk.durableFiles()) {
    if (!path.endsWith('.jsonl')) continue;
    let known = decoded.get(text);
    if (!known) {
      known = [];
      for (const record of decodeJournal(text).records) {
        const parsed = JournalRecord.safeParse(record);
        if (parsed.success && parsed.data.type === 'acknowledged') known.push(parsed.data.localId);
      }
      if (decoded.size > 1000) decoded.clear();
      decoded.set(text, known);
    }
    ids.push(...known);
  }
  return ids;
}

/** Journal texts already decoded, and the entries they acknowledge. */
const decoded = new Map<string, string[]>();

/** An entry once shown sent and acknowledged on disk that is back in the queue. */
function confirmedAndBack(day: Day, truth: Truth): Finding[] {
  const findings: Finding[] = [];
  for (const device of day.devices) {
    const seen = confirmedOf(device);
    for (const id of acknowledgedOnDisk(device)) seen.acknowledged.add(id);
    for (const profileId of device.profileIds) {
      for (const row of validRows([...(truth.rows.get(`${device.name}/${profileId}`)?.values() ?? [])])) {
        if (row.state === 'sent') seen.sent.add(row.localId);
        else if (seen.sent.has(row.localId) && seen.acknowledged.has(row.localId))
          findings.push({
            kind: 'untrue',
            text: `${device.name}: ${row.animal.name} was shown sent (${row.serverId ?? 'its id'}) and acknowledged in the safety copy, and is back in the queue as ${row.state}`,
          });
      }
    }
  }
  return findings;
}

async function gather(day: Day): Promise<Truth> {
  const rows = new Map<string, Map<string, unknown>>();
  const journal = new Map<string, Set<string>>();
  for (const device of day.devices) {
    // The world's own integrity: each window's database is its computer's (no instance of another day).
    for (const window of device.liveWindows()) {
      const db = device.profileId ? window.app.session(device.profileId).db : null;
      if (db?.isOpen() && !device.browser.serves(db.backendDB()))
        throw new Error(`${window.id}: its database is not this computer's (a stale instance)`);
    }
    for (const profileId of device.profileIds) {
      const key = `${device.name}/${profileId}`;
      const byId = new Map<string, unknown>();
      for (const row of outboxRows(device, profileId)) byId.set(String(localIdOf(row)), row);
      rows.set(key, byId);
      journal.set(key, await journalOpen(device, profileId));
    }
  }
  return { rows, journal };
}

/** What each live window's stores say, against what is so. */
function untrueScreens(day: Day, truth: Truth): Finding[] {
  const findings: Finding[] = [];
  const untrue = (text: string) => findings.push({ kind: 'untrue', text });
  const service = day.world.service;
  for (const device of day.devices) {
    const profileId = device.profileId;
    if (!profileId || !device.alive) continue;
    const rows = validRows([...(truth.rows.get(`${device.name}/${profileId}`)?.values() ?? [])]);
    const pending = rows.filter((row) => row.state === 'queued' || row.state === 'sending').length;
    for (const row of rows) {
      if (row.state !== 'sent' || row.serverId === null) continue;
      const creation = service.creationOf(row.serverId);
      const told = day.ledger.told.get(row.localId);
      const key = creation?.key?.replace(/^"|"$/g, '');
      if (creation && (key === row.idempotencyKey || told?.confirmedId === row.serverId)) continue;
      untrue(
        `${device.name}: ${row.animal.name} is shown sent as ${row.serverId}, which ${creation ? `was created by another entry (${creation.computer})` : 'the service does not have'}`,
      );
    }
    const windows = device.liveWindows();
    const leader = windows.find((window) => window.sync.leading);
    for (const window of windows) {
      const app = window.app;
      if (app.profiles.activeId !== profileId) continue;
      const outbox = app.session(profileId).outbox;
      const shown = new Map(
        outbox.entries.map((entry) => [entry.localId, `${entry.state}${entry.serverId ? ` ${entry.serverId}` : ''}`]),
      );
      const stored = new Map(rows.map((row) => [row.localId, `${row.state}${row.serverId ? ` ${row.serverId}` : ''}`]));
      const differences = [...new Set([...shown.keys(), ...stored.keys()])].filter(
        (id) => shown.get(id) !== stored.get(id),
      );
      if (differences.length > 0) {
        const id = differences[0]!;
        untrue(
          `${window.id}: the queue shows ${differences.length} entr${differences.length === 1 ? 'y' : 'ies'} unlike IndexedDB (e.g. ${id.slice(0, 8)}: shown ${shown.get(id) ?? 'absent'}, stored ${stored.get(id) ?? 'absent'})${outbox.error ? ` [${outbox.error}]` : ''}`,
        );
      }
      const progress = outbox.progress;
      if (leader && progress) {
        const expected = leader.sync.progress(profileId);
        const fields = ['active', 'total', 'sent', 'pausedFor', 'nextAttemptAt', 'allSentAt'] as const;
        const off = fields.filter((field) => progress[field] !== expected[field]);
        if ((progress.lastError?.code ?? null) !== (expected.lastError?.code ?? null)) off.push('lastError' as never);
        if (off.length > 0)
          untrue(
            `${window.id}: the sync progress shown differs from the sender's (${leader.id}) in ${off.join(', ')}: shown ${JSON.stringify(pick(progress, off))}, sender ${JSON.stringify(pick(expected, off))}`,
          );
      }
      const reach = app.connectivity.state(profileId);
      if (
        progress?.active &&
        progress.total > 0 &&
        progress.sent < progress.total &&
        reach !== 'offline' &&
        pending === 0
      )
        untrue(
          `${window.id}: says "Sending ${Math.min(progress.sent + 1, progress.total)} of ${progress.total}" with nothing waiting to be sent`,
        );
      const heard = window.lastConnectivity.get(profileId);
      const expectedReach = heard === undefined ? 'unknown' : heard ? 'online' : 'offline';
      if (reach !== expectedReach)
        untrue(`${window.id}: says the service is ${reach}, but the core last said ${expectedReach}`);
      const keyState = app.keys.state(profileId);
      if ((keyState === 'none' || keyState === 'refused') && device.keychainHas(profileId))
        untrue(`${window.id}: says a key is needed (${keyState}) while the key is saved and never refused`);
    }
  }
  return findings;
}

function pick<T extends object>(value: T, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, (value as Record<string, unknown>)[field]]));
}

/** After every step: nothing told saved is lost, nothing is sent twice, every screen is true. */
export async function checkAfterStep(day: Day): Promise<Finding[]> {
  const truth = await gather(day);
  return [...lostAndTwice(day, truth), ...untrueScreens(day, truth), ...confirmedAndBack(day, truth)];
}

/** At the end of the day, everything up long enough: nothing waits, every animal is on the service once, no key anywhere. */
export async function checkEndOfDay(day: Day): Promise<Finding[]> {
  const truth = await gather(day);
  const findings: Finding[] = [];
  const byKey = creationsByKey(day.world.service);
  for (const told of day.ledger.owed()) {
    const count = byKey.get(told.idempotencyKey)?.length ?? 0;
    if (count === 0 && told.confirmedId === null)
      findings.push({
        kind: 'waits',
        text: `${told.name} (${told.computer}, said saved at ${(told.at / 1000).toFixed(1)} s) has not reached the service`,
      });
  }
  for (const device of day.devices) {
    const profileId = device.profileId;
    if (!profileId) continue;
    const rows = validRows([...(truth.rows.get(`${device.name}/${profileId}`)?.values() ?? [])]);
    for (const row of rows.filter((r) => r.state !== 'sent'))
      findings.push({
        kind: 'waits',
        text: `${device.name}: ${row.animal.name} still ${row.state}${row.lastError ? ` (${row.lastError.code}: ${row.lastError.message})` : ''}`,
      });
  }
  if (findings.length > 0) return findings;
  return [
    ...lostAndTwice(day, truth),
    ...untrueScreens(day, truth),
    ...confirmedAndBack(day, truth),
    ...(await keyFindings(day)),
  ];
}

/** The key, or any 16 characters of it, anywhere it must never be. */
async function keyFindings(day: Day): Promise<Finding[]> {
  const key = day.world.apiKey;
  const pieces = new Set<string>();
  for (let i = 0; i + 16 <= key.length; i += 1) pieces.add(key.slice(i, i + 16));
  const findings: Finding[] = [];
  const search = (where: string, text: string) => {
    for (const piece of pieces)
      if (text.includes(piece)) {
        findings.push({ kind: 'key', text: `the API key is in ${where}` });
        return;
      }
  };
  for (const device of day.devices) {
    search(`${device.name}'s core's logs, events or answers`, device.traffic.outOfCore.join('\n'));
    search(`${device.name}'s disk`, device.disk.written.join('\n'));
    search(`${device.name}'s localStorage`, device.localStorage.dump());
    search(`${device.name}'s IndexedDB`, device.browser.dump());
  }
  search('the console', day.world.console.join('\n'));
  return findings;
}
