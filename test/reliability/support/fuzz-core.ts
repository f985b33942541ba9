/**
 * The real app core for fuzzing: a temp data folder, an in-memory secret store, and a fetch
 * that answers at once like a generous service (so valid calls are served without 10,000
 * real network round trips). Plus the checks every answer of the API must pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AppCore, createAppCore } from '../../../electron/core/app-core';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { api, type Channel, CHANNELS } from '../../../src/shared/app-api/api';
import { resultSchema } from '../../../src/shared/app-api/result';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Answers every service call at once: lists, a looked-up or created animal, orders. */
export const instantFetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
  const url = new URL(String(input));
  const headers = {
    'Content-Type': 'application/json',
    'X-RateLimit-Limit': '1000000',
    'X-RateLimit-Remaining': '999999',
    'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
  };
  const id = /\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  let body = '[]';
  if (init.method === 'POST') body = `{"id":9007199254740993,${String(init.body).replace(/^\{/, '')}`;
  else if (id) body = `{"id":${id},"name":"Rex","categoryId":1}`;
  return new Response(body, { status: init.method === 'POST' ? 201 : 200, headers });
}) as typeof fetch;

export interface FuzzCore {
  core: AppCore;
  loggedErrors: string[];
  dispose(): Promise<void>;
}

export async function startFuzzCore(): Promise<FuzzCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adoption-fuzz-'));
  const loggedErrors: string[] = [];
  const core = await createAppCore({
    fetch: instantFetch,
    dataDir,
    secretStore: new MemorySecretStore(),
    builtIns: { file: join(ROOT, 'resources', 'profiles.json') },
    localDemoUrl: 'http://127.0.0.1:9/v1',
    logError: (message) => loggedErrors.push(message),
  });
  return {
    core,
    loggedErrors,
    async dispose() {
      await core.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const KNOWN = new Set<string>(CHANNELS);
const schemas = new Map(CHANNELS.map((c) => [c, resultSchema(api[c].output)]));

/** Null when `answer` is a typed error or a valid result of `channel`; else what is wrong. */
export function answerProblem(channel: string, answer: unknown): string | null {
  if (!KNOWN.has(channel)) {
    const error = (answer as { ok?: unknown; error?: { code?: unknown } }) ?? {};
    return error.ok === false && error.error?.code === 'invalid_request' ? null : 'unknown channel not refused';
  }
  const parsed = schemas.get(channel as Channel)?.safeParse(answer);
  if (!parsed?.success) return `answer does not match the ${channel} result schema`;
  if (parsed.data.ok === false && parsed.data.error.code === 'internal') return 'internal error (a handler failed)';
  return null;
}

/** Object.prototype has no enumerable keys and no `polluted` property. */
export function prototypeIsClean(): boolean {
  const probe = {} as Record<string, unknown>;
  return (
    Object.keys(Object.prototype).length === 0 && probe.polluted === undefined && !('polluted' in Object.prototype)
  );
}
