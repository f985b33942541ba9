/**
 * Crash during sync (issue 7 part 1), short variant for `npm test`: 50 creations queued, the
 * drain started, then at a seeded moment the browser host child is `kill -9`ed or the
 * browser is closed; after the restart every animal is on the service exactly once and
 * nothing is queued or lost. One seed × {host kill, browser close} against a service that
 * honours Idempotency-Key, and one of each against `--no-idempotency`: the real processes, the
 * real kill -9 and the real browser. The interleavings are the event-day simulator's (test/sim,
 * thousands of seeded days in `npm run simulate`, 150 in npm test); these four runs prove the
 * processes themselves behave as it models them. The creation the crash
 * cut may be asked about ("check needed", at most one question per run): against the
 * idempotent service the run answers "send mine" (the key replays the stored animal),
 * against `--no-idempotency` "it is this one" (reconciliation never guesses alone).
 * The 20-seed variants: crash-during-sync.soak.spec.ts (SOAK=1).
 */
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { test } from './fixtures';
import { checkCrashOutcome } from './support/crash-assertions';
import { type CrashKind, runCrashScenario } from './support/crash-scenario';

const SERVICE = { seedAnimals: 0, plan: 'enterprise:100000:1000000', latencyMs: '2..15' };
const KINDS: CrashKind[] = ['host-kill', 'browser-close'];

test.describe.configure({ mode: 'parallel' });

/** One crash run: queue, crash at the seed's moment, restart, check every animal is there once. */
function crashTest(title: string, seed: number, kind: CrashKind, idempotency: boolean): void {
  test(title, async ({ service, dataDir, keychainService, secretStore, browser }, info) => {
    test.setTimeout(90_000);
    await storeBoundKey(secretStore, 'local', service.url, service.key);
    const deps = { service, dataDir, keychainService, browser };
    const outcome = await runCrashScenario(deps, seed, kind, idempotency ? 'send-mine' : 'this-one');
    checkCrashOutcome(info, outcome, { seed, kind, idempotency });
  });
}

test.describe('against a service that honours Idempotency-Key', () => {
  test.use({ serviceOptions: SERVICE });
  for (const seed of [101])
    for (const kind of KINDS) crashTest(`seed ${seed}: ${kind} mid-drain, every animal exactly once`, seed, kind, true);
});

test.describe('against --no-idempotency (staff confirm the doubtful one: no duplicate)', () => {
  test.use({ serviceOptions: { ...SERVICE, idempotency: false } });
  for (const [seed, kind] of [
    [201, 'host-kill'],
    [202, 'browser-close'],
  ] as const)
    crashTest(`seed ${seed}: ${kind} mid-drain, no duplicate after reconciliation`, seed, kind, false);
});
