/**
 * One sender per app (issue 14, data safety 3): windows share a Web Lock; the holder's
 * engine sends, the others show its progress and hand it their work. The lock manager and
 * the BroadcastChannel are small in-memory stand-ins with the browser's semantics (a
 * request waits in a queue until the holder's callback settles; a message reaches every
 * other channel of the same name, never its sender).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { type ChannelLike, type LockManagerLike, SharedSync } from '../../../src/sync/shared-sync';
import type { SyncProgress } from '../../../src/sync/sync-progress';
import { FakeApi, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

class FakeLocks implements LockManagerLike {
  private held = false;
  private readonly queue: Array<() => void> = [];

  request(_name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held = true;
        void callback().finally(() => {
          this.held = false;
          resolve(undefined);
          this.queue.shift()?.();
        });
      };
      if (!this.held) return grant();
      this.queue.push(grant);
      options.signal.addEventListener('abort', () => {
        const index = this.queue.indexOf(grant);
        if (index >= 0) this.queue.splice(index, 1);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  }
}

class FakeHub {
  readonly channels = new Set<FakeChannel>();
  open(): FakeChannel {
    const channel = new FakeChannel(this);
    this.channels.add(channel);
    return channel;
  }
}

class FakeChannel implements ChannelLike {
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor(private readonly hub: FakeHub) {}
  postMessage(message: unknown): void {
    const copy = structuredClone(message);
    for (const other of this.hub.channels) {
      if (other !== this) queueMicrotask(() => other.onmessage?.({ data: copy } as MessageEvent));
    }
  }
  close(): void {
    this.hub.channels.delete(this);
  }
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
});

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

function appWindows(count: number) {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const { db, profileId, close } = freshDb();
  const locks = new FakeLocks();
  const hub = new FakeHub();
  const window = () => {
    const engine = new SyncEngine({ api, db: openProfileDb, profileIds: () => [profileId], clock, random: () => 0 });
    const sync = new SharedSync({ engine, profileIds: () => [profileId], locks, openChannel: () => hub.open() });
    const seen: SyncProgress[] = [];
    sync.onProgress((progress) => seen.push(progress));
    cleanups.push(() => sync.stop());
    return { engine, sync, seen };
  };
  cleanups.push(close);
  const windows = Array.from({ length: count }, window);
  return { clock, api, profileId, outbox: new Outbox(db, clock, new MemorySafetyCopy()), windows };
}

function twoWindows() {
  const { windows, ...rest } = appWindows(2);
  return { ...rest, first: windows[0]!, second: windows[1]! };
}

describe('SharedSync', () => {
  it('lets exactly one window send; the other hands its work over and shows the sender’s progress', async () => {
    const { api, profileId, outbox, first, second } = twoWindows();
    first.sync.start();
    second.sync.start();
    await settle();
    expect([first.sync.leading, second.sync.leading]).toEqual([true, false]);

    for (const name of ['A', 'B', 'C']) await outbox.enqueue(newAnimal(name));
    second.sync.sendPending(profileId); // entered in the second window
    await settle();
    await first.engine.whenIdle();
    await settle();
    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['A', 'B', 'C']);
    expect(api.maxConcurrentCreates).toBe(1);
    expect(second.sync.progress(profileId)).toMatchObject({ total: 3, sent: 3, active: false });
    expect(second.seen.some((p) => p.active && p.sent < p.total)).toBe(true);
    expect(second.seen.at(-1)).toEqual(first.sync.progress(profileId));
  });

  it('a window opened later gets the sender’s current progress at once', async () => {
    const { profileId, outbox, first, second } = twoWindows();
    await outbox.enqueue(newAnimal('A'));
    first.sync.start();
    await settle();
    await first.engine.whenIdle();
    second.sync.start();
    await settle();
    expect(second.sync.progress(profileId)).toMatchObject({ sent: 1, total: 1 });
    expect(second.sync.progress(profileId).allSentAt).not.toBeNull();
  });

  it('when the sending window closes, the next one takes over and sends what is left', async () => {
    const { api, profileId, outbox, first, second } = twoWindows();
    first.sync.start();
    second.sync.start();
    await settle();
    first.sync.stop();
    await settle();
    expect(second.sync.leading).toBe(true);
    await outbox.enqueue(newAnimal('After'));
    second.sync.sendPending(profileId);
    await second.engine.whenIdle();
    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['After']);
  });

  it('when a window takes over, the windows still waiting show its progress, not the last sender’s', async () => {
    const { profileId, outbox, windows } = appWindows(3);
    const [first, second, third] = windows as [(typeof windows)[0], (typeof windows)[0], (typeof windows)[0]];
    await outbox.enqueue(newAnimal('A'));
    for (const w of windows) w.sync.start();
    await settle();
    await first.engine.whenIdle();
    await settle();
    expect(third.sync.progress(profileId)).toMatchObject({ sent: 1, total: 1 });
    first.sync.stop();
    await settle();
    expect([second.sync.leading, third.sync.leading]).toEqual([true, false]);
    // The new sender has sent nothing yet: the last sender's "1 of 1, all sent" is not shown as its own.
    expect(third.sync.progress(profileId)).toEqual(second.sync.progress(profileId));
    expect(third.sync.progress(profileId)).toMatchObject({ sent: 0, total: 0, allSentAt: null });
  });

  it('sends on its own, and says so, where Web Locks are refused', async () => {
    const { profileId, outbox } = twoWindows();
    const clock = new FakeClock();
    const api = new FakeApi(clock);
    const warnings: string[] = [];
    const engine = new SyncEngine({ api, db: openProfileDb, profileIds: () => [profileId], clock });
    const refusing: LockManagerLike = {
      request: () => Promise.reject(new DOMException('Access to the Locks API is denied', 'SecurityError')),
    };
    const sync = new SharedSync({
      engine,
      profileIds: () => [profileId],
      locks: refusing,
      openChannel: () => null,
      warn: (message) => warnings.push(message),
    });
    cleanups.push(() => sync.stop());
    await outbox.enqueue(newAnimal('Alone'));
    sync.start();
    await settle();
    await engine.whenIdle();
    expect(sync.leading).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/Web Locks are not available.*sends on its own/)]);
    expect(api.createCalls).toHaveLength(1);
  });
});
