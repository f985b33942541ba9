/**
 * Our real service client + rate-limit governor pointed at a hostile server, and the checks
 * every hostile answer must pass: an error value (no data, so nothing reaches the cache),
 * shaped like the contract's AppError, never quoting the key or an HTML page.
 */
import { expect } from 'vitest';
import { RateLimitGovernor } from '../../../electron/core/rate-limit/governor';
import { createServiceClient, type ServiceClientOptions } from '../../../electron/core/service/service-client';
import { type Clock, systemClock } from '../../../src/shared/basics/clock';
import { AppError, type Result } from '../../../src/shared/app-api/result';

export const KEY = 'hostile-test-KEY-0123456789';

export interface HostileClientOptions {
  clock?: Clock;
  maxRetries?: number;
  http?: ServiceClientOptions['http'];
}

export function hostileClient(baseUrl: string, options: HostileClientOptions = {}) {
  const clock = options.clock ?? systemClock;
  const governor = new RateLimitGovernor({
    profileId: 'hostile',
    clock,
    random: () => 0.5,
    maxRetries: options.maxRetries ?? 0,
  });
  const client = createServiceClient({
    fetch,
    baseUrl,
    getKey: async () => KEY,
    governor,
    clock,
    profileId: 'hostile',
    ...(options.http ? { http: options.http } : {}),
  });
  return { client, governor };
}

/** The result is a clean error value with `code`; returns it for further checks. */
export function expectCleanError(result: Result<unknown>, code: string): AppError {
  expect(result.ok).toBe(false);
  expect(result).not.toHaveProperty('data');
  if (result.ok) throw new Error('expected an error value');
  expect(AppError.safeParse(result.error).success).toBe(true);
  expect(result.error.code).toBe(code);
  expect(result.error.message.length).toBeGreaterThan(0);
  expect(result.error.message).not.toContain(KEY);
  expect(result.error.message).not.toMatch(/<[a-z!/]/i);
  return result.error;
}

/** Records unhandled rejections and uncaught exceptions while a suite runs. */
export function watchProcess(): { problems: unknown[]; stop(): void } {
  const problems: unknown[] = [];
  const onProblem = (error: unknown): void => void problems.push(error);
  process.on('unhandledRejection', onProblem);
  process.on('uncaughtException', onProblem);
  return {
    problems,
    stop() {
      process.off('unhandledRejection', onProblem);
      process.off('uncaughtException', onProblem);
    },
  };
}
