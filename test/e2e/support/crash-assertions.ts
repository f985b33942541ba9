/**
 * What every crash run must show (issue 7 part 1), and the figures it reports: every queued
 * animal exists on the service exactly once, the app's outbox holds them all as sent with
 * the service's ids, nothing is queued or lost. Duplicates are counted and reported before
 * they are asserted to be zero, so the soak summary carries the figure even when it fails.
 */
import type { TestInfo } from '@playwright/test';
import { expect } from '../fixtures';
import { CRASH_COUNT, type CrashKind, type CrashOutcome } from './crash-scenario';

export function checkCrashOutcome(
  info: TestInfo,
  outcome: CrashOutcome,
  run: { seed: number; kind: CrashKind; idempotency: boolean },
): void {
  const summary =
    `crash seed ${run.seed} ${run.kind} ${run.idempotency ? 'idempotent' : '--no-idempotency'}: ` +
    `crash after ${outcome.phase} #${outcome.k} (${outcome.storedAtCrash} stored), ` +
    `duplicates after reconciliation ${outcome.duplicates}, questions to staff ${outcome.checks}`;
  info.annotations.push({ type: 'crash-result', description: summary });
  console.log(summary);

  // The crash fell inside the drain: something was still to send.
  expect(outcome.storedAtCrash).toBeLessThan(CRASH_COUNT);
  expect(outcome.duplicates, 'duplicates after reconciliation').toBe(0);
  // Only the creation the crash cut can be in doubt.
  expect(outcome.checks, 'questions to staff').toBeLessThanOrEqual(1);
  const notOnce = [...outcome.perName].filter(([, count]) => count !== 1);
  expect(notOnce, 'names not on the service exactly once').toEqual([]);

  expect(outcome.outbox).toHaveLength(CRASH_COUNT);
  for (const row of outcome.outbox) {
    expect(row.state, row.name).toBe('sent');
    expect(row.serverId, row.name).toBe(outcome.serviceIds.get(row.name)?.[0]);
  }
}
