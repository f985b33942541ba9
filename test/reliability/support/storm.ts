/**
 * The rate-limit storm (issue 7.4): many requests queued at once on one Free-plan key, through
 * one governor + service client with the real clock, against the local service with a short
 * "minute". The service's request log is the proof: no ban, no request while told to wait.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RateLimitGovernor } from '../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../electron/core/service/service-client';
import { systemClock } from '../../../src/shared/basics/clock';
import type { Result } from '../../../src/shared/app-api/result';
import { readRequestLog, type RequestLogLine, startService } from '../../service/index';

export interface StormOptions {
  reads: number;
  writes: number;
  minuteMs: number;
  dayMs?: number;
  plan?: string;
}

export interface StormReport {
  results: Result<unknown>[];
  lines: RequestLogLine[];
  elapsedMs: number;
  served: number;
  status429: number;
  banned: number;
  toldToWait: number;
  created: number;
  animalCount: number;
}

export async function runStorm(options: StormOptions): Promise<StormReport> {
  const dir = mkdtempSync(join(tmpdir(), 'adoption-storm-'));
  const logFile = join(dir, 'requests.log');
  const key = `storm-${crypto.randomUUID()}`;
  const service = await startService({
    keys: { [key]: options.plan ?? 'free' },
    minuteMs: options.minuteMs,
    dayMs: options.dayMs ?? 24 * 60 * 60 * 1000,
    logFile,
  });
  const governor = new RateLimitGovernor({ profileId: 'storm', clock: systemClock });
  const client = createServiceClient({
    fetch,
    baseUrl: service.url,
    getKey: async () => key,
    governor,
    clock: systemClock,
    profileId: 'storm',
  });
  try {
    const started = Date.now();
    const calls: Promise<Result<unknown>>[] = [];
    const every = options.writes > 0 ? Math.floor(options.reads / options.writes) : Infinity;
    for (let i = 0; i < options.reads; i += 1) {
      // each read with its own signal, as a caller who may cancel it: not shared with an
      // identical one (read-sharing.ts), so that all of them reach the service
      calls.push(client.listPets({ limit: 1 + (i % 100) }, { signal: new AbortController().signal }));
      if (i % every === 0 && calls.length < options.reads + options.writes)
        calls.push(client.createPet({ name: `Storm ${i}`, categoryId: String(1 + (i % 7)) }, crypto.randomUUID()));
    }
    const results = await Promise.all(calls);
    const elapsedMs = Date.now() - started;
    const lines = await readRequestLog(logFile);
    return {
      results,
      lines,
      elapsedMs,
      served: lines.filter((l) => l.status !== null && l.status < 300).length,
      status429: lines.filter((l) => l.status === 429).length,
      // a ban makes every later request of the key "told to wait"; the client would see `banned`
      banned: results.filter((r) => !r.ok && r.error.code === 'banned').length,
      toldToWait: lines.filter((l) => l.toldToWait).length,
      created: lines.filter((l) => l.createdId !== null).length,
      animalCount: service.animalCount(),
    };
  } finally {
    governor.dispose();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function describeStorm(report: StormReport): string {
  const seconds = (report.elapsedMs / 1000).toFixed(1);
  return (
    `storm: ${report.results.length} requests in ${seconds} s; ${report.lines.length} reached the service, ` +
    `${report.served} served, ${report.status429} × 429, ${report.toldToWait} sent while told to wait, ` +
    `${report.created} created`
  );
}
