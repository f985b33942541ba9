/** Helpers for the service's own tests: start a service per test and call it over real HTTP. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { decodeJson } from '../../src/shared/records/json-codec';
import { startService, type RunningService, type ServiceOptions } from './index';

export const KEY = 'test-key-1';

const running: RunningService[] = [];
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** Starts a service stopped after the test; a `test-key-1` Pro key unless `keys` is given. */
export async function serve(options: ServiceOptions = {}): Promise<RunningService> {
  const service = await startService({ keys: { [KEY]: 'pro' }, ...options });
  running.push(service);
  return service;
}

export async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'adoption-service-'));
  folders.push(folder);
  return folder;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body decoded with the shared codec (ids as decimal strings); undefined if not JSON. */
  json: unknown;
}

export interface CallOptions {
  method?: string;
  /** API key; null sends no Authorization header. Default KEY. */
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: options.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = decodeJson(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Asserts nothing; returns the Error body fields for `expect(...).toEqual`. */
export function errorOf(answer: Answer): { code: unknown; status: unknown; message: unknown } {
  const body = answer.json as Record<string, unknown>;
  return { code: body.code, status: body.status, message: body.message };
}

export function rateHeaders(answer: Answer): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(answer.headers.get('x-ratelimit-limit')),
    remaining: Number(answer.headers.get('x-ratelimit-remaining')),
    reset: Number(answer.headers.get('x-ratelimit-reset')),
  };
}
