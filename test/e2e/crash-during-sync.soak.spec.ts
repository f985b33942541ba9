/**
 * Crash during sync, full variant (issue 7 part 1): 20 seeds × {host kill -9, browser close}
 * against a service that honours Idempotency-Key, and 20 seeds × both against
 * `--no-idempotency` (each run reports its duplicates after reconciliation; the goal is 0).
 * Long, so it only runs with SOAK=1:
 *   SOAK=1 node scripts/with-keyring.mjs npx playwright test crash-during-sync.soak
 * The short variant in `npm test` is crash-during-sync.spec.ts.
 */
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { test } from './fixtures';
import { checkCrashOutcome } from './support/crash-assertions';
import { type CrashKind, runCrashScenario } from './support/crash-scenario';

const SERVICE = { seedAnimals: 0, plan: 'enterprise:100000:1000000', latencyMs: '2..15' };
const SEEDS = Array.from({ length: 20 }, (_, i) => 1001 + i);
const KINDS: CrashKind[] = ['host-kill', 'browser-close'];

test.describe.configure({ mode: 'parallel' });

for (const idempotency of [true, false])
  test.describe(idempotency ? 'soak: idempotent service' : 'soak: --no-idempotency', () => {
    test.skip(!process.env.SOAK, 'soak variant: run with SOAK=1 (see the header of this file)');
    test.use({ serviceOptions: { ...SERVICE, idempotency } });
    for (const seed of SEEDS)
      for (const kind of KINDS)
        test(`seed ${seed}: ${kind}`, async ({ service, dataDir, keychainService, secretStore, browser }, info) => {
          test.setTimeout(120_000);
          await storeBoundKey(secretStore, 'local', service.url, service.key);
          const deps = { service, dataDir, keychainService, browser };
          const outcome = await runCrashScenario(deps, seed, kind, idempotency ? 'send-mine' : 'this-one');
          checkCrashOutcome(info, outcome, { seed, kind, idempotency });
        });
  });
