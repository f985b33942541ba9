/** Helpers for the data-layer tests: unique databases, the tests' fake clock, a scripted fake API. */
import type { Animal, NewAnimal } from '../../../src/shared/records/animal';
import type { ChannelInput, ChannelOutput, SafetyEntry, SafetyOutcome } from '../../../src/shared/app-api/api';
import type { AdoptionApi } from '../../../src/shared/app-api/client';
import { type AppError, err, ok, type Result } from '../../../src/shared/app-api/result';
import { closeProfileDb, openProfileDb, type ProfileDb } from '../../../src/storage/db';
import type { Outbox } from '../../../src/storage/outbox';
import type { OutboxEntry } from '../../../src/storage/outbox-records';
import { SafetyCopyError, type SafetyCopyPort, type SafetyCopyRead } from '../../../src/two-copies/safety-copy-port';

let counter = 0;

/** A profile id no other test uses, so each test gets a fresh database. */
export function uniqueProfileId(): string {
  counter += 1;
  return `t${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export function freshDb(): { profileId: string; db: ProfileDb; close: () => void } {
  const profileId = uniqueProfileId();
  return { profileId, db: openProfileDb(profileId), close: () => closeProfileDb(profileId) };
}

export { FakeClock } from '../../support/fake-clock';

export function newAnimal(name: string, categoryId = '1', status?: NewAnimal['status']): NewAnimal {
  return status ? { name, categoryId, status } : { name, categoryId };
}

export function animal(id: string, name: string, categoryId = '1', status?: Animal['status']): Animal {
  return status ? { id, name, categoryId, status } : { id, name, categoryId };
}

export function appError(code: string, message = code, extra: Partial<AppError> = {}): AppError {
  return { ...extra, code, message };
}

type CreateInput = ChannelInput<'createPet'>;
type ListInput = ChannelInput<'listPets'>;
type CreateResult = Result<ChannelOutput<'createPet'>>;
type ListResult = Result<ChannelOutput<'listPets'>>;
type CreateAnswer = CreateResult | ((input: CreateInput, api: FakeApi) => CreateResult | Promise<CreateResult>);
type ListAnswer = ListResult | ((input: ListInput) => ListResult | Promise<ListResult>);

/**
 * A fake `AdoptionApi` over an in-memory service (`animals`) that does not honour
 * idempotency keys unless `honoursKeys` is set (then a repeated key answers the first
 * creation again). Scripted answers are used first, in order; otherwise `createPet` stores
 * the animal under a new id and `listPets` answers from the stored animals. Records every call
 * and the highest number of `createPet` calls in flight at once.
 */
export class FakeApi implements Pick<AdoptionApi, 'createPet' | 'listPets'> {
  readonly createCalls: CreateInput[] = [];
  readonly listCalls: ListInput[] = [];
  readonly createAnswers: CreateAnswer[] = [];
  readonly listAnswers: ListAnswer[] = [];
  readonly animals: Animal[] = [];
  maxConcurrentCreates = 0;
  honoursKeys = false;
  private readonly byKey = new Map<string, Animal>();
  private inFlight = 0;
  private nextId = 1000;

  constructor(private readonly clock: { now(): number } = { now: () => 0 }) {}

  /** Stores an animal as the service would (under `key`, when given), returning the created animal. */
  store(entered: NewAnimal, key?: string): Animal {
    const created: Animal = { id: String(this.nextId++), ...entered };
    this.animals.push(created);
    if (key) this.byKey.set(key, created);
    return created;
  }

  /** What the service does with a creation: a replay when it honours keys and knows this one. */
  create(input: CreateInput): Animal {
    const prior = this.honoursKeys ? this.byKey.get(input.idempotencyKey) : undefined;
    return prior ?? this.store(input.animal, input.idempotencyKey);
  }

  createPet = async (input: CreateInput): Promise<CreateResult> => {
    this.createCalls.push(input);
    this.inFlight += 1;
    this.maxConcurrentCreates = Math.max(this.maxConcurrentCreates, this.inFlight);
    try {
      await Promise.resolve();
      const answer = this.createAnswers.shift();
      if (typeof answer === 'function') return await answer(input, this);
      if (answer) return answer;
      return ok({ animal: this.create(input), fetchedAt: this.clock.now() });
    } finally {
      this.inFlight -= 1;
    }
  };

  listPets = async (input: ListInput): Promise<ListResult> => {
    this.listCalls.push(input);
    await Promise.resolve();
    const answer = this.listAnswers.shift();
    if (typeof answer === 'function') return answer(input);
    if (answer) return answer;
    const { status, limit = 20 } = input.query;
    const animals = this.animals.filter((a) => !status || a.status === status).slice(0, limit);
    return ok({ animals, fetchedAt: this.clock.now() });
  };

  failCreate(code: string, message = code, extra: Partial<AppError> = {}): this {
    this.createAnswers.push(err(code, message, extra));
    return this;
  }

  failList(code: string, message = code, extra: Partial<AppError> = {}): this {
    this.listAnswers.push(err(code, message, extra));
    return this;
  }
}

/** The valid entries of an outbox in creation order (what a sync pass reads). */
export async function entriesOf(outbox: Outbox): Promise<OutboxEntry[]> {
  return (await outbox.readAll()).entries;
}

/** The entries still to send (queued or sending), in creation order. */
export async function pendingOf(outbox: Outbox): Promise<OutboxEntry[]> {
  return (await entriesOf(outbox)).filter((entry) => entry.state === 'queued' || entry.state === 'sending');
}

/**
 * The core's safety copy in memory, with its rules (an entry kept, edited, settled; a batch counts
 * when complete), and a log of what was asked in order, so tests can tell it came before IndexedDB.
 */
export class MemorySafetyCopy implements SafetyCopyPort {
  readonly entries = new Map<
    string,
    Omit<SafetyEntry, 'doubtSince'> & {
      doubtSince: number | null;
      settled: SafetyOutcome | null;
      fromEarlierVersion?: true;
    }
  >();
  readonly log: string[] = [];
  problems: string[] = [];
  /** Set to make the next writes fail (a full disk). */
  failWith: string | null = null;

  async keep(entries: readonly SafetyEntry[]): Promise<void> {
    this.#check();
    for (const entry of entries) {
      const before = this.entries.get(entry.localId);
      this.entries.set(entry.localId, {
        ...entry,
        createdAt: before?.createdAt ?? entry.createdAt,
        doubtSince: entry.doubtSince ?? null,
        settled: null,
      });
      this.log.push(`keep ${entry.animal.name}`);
    }
  }

  async settle(localId: string, outcome: SafetyOutcome): Promise<void> {
    this.#check();
    const entry = this.entries.get(localId);
    if (entry) entry.settled = outcome;
    this.log.push(`settle ${entry?.animal.name ?? localId} ${outcome.outcome}`);
  }

  async read(): Promise<SafetyCopyRead> {
    const open = [...this.entries.values()].filter((entry) => entry.settled === null);
    return {
      entries: open.map(({ settled: _settled, ...entry }) => entry),
      problems: this.problems,
    };
  }

  #check(): void {
    if (this.failWith) throw new SafetyCopyError(this.failWith);
  }
}
