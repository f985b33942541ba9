/**
 * What kind of request each refusal of a shared-key run was, from the service's request log alone
 * (issue 34, thirteenth sitting): the bench counted 429s, and only a decision trace of every
 * device (a patched DeviceShare) could tell a window's crowd of closes from a burst that ran
 * past the window's end. The log tells the same apart without touching the devices:
 *
 * - `first`: the device's first request in the window. It knew nothing of the window yet.
 * - `opener`: a later request of the device whose request took the window's first value
 *   (Remaining = Limit − 1), the one that keeps its last tasks to close the window.
 * - `paused`: a later request of another device that reached the service at least PAUSED_MS
 *   after its previous one in the window: a close after a quiet spell (device-share.ts).
 * - `burst`: a later request of another device, sooner than that: the burst ran past the end.
 * - `unknown`: the log does not say whose request it was (no Idempotency-Key we handed out).
 *
 * Windows are counted from the key's first request, as the service counts them.
 */
import type { RequestLogLine } from '../../service/index';

export interface RefusalKinds {
  first: number;
  opener: number;
  paused: number;
  burst: number;
  unknown: number;
}

/** A device's next request this long after its previous one in the window followed a pause of its own. */
export const PAUSED_MS = 15;

export function refusalKinds(
  lines: readonly RequestLogLine[],
  deviceOf: ReadonlyMap<string, number>,
  windowMs: number,
): RefusalKinds {
  const kinds: RefusalKinds = { first: 0, opener: 0, paused: 0, burst: 0, unknown: 0 };
  if (lines.length === 0) return kinds;
  const arrivals = lines
    .map((line) => ({ line, at: Date.parse(line.time), device: deviceOf.get(line.idempotencyKey ?? '') }))
    .sort((a, b) => a.at - b.at);
  const start = arrivals[0]?.at ?? 0;
  const openers = new Map<number, number>();
  const previous = new Map<string, number>();
  for (const { line, at, device } of arrivals) {
    const window = Math.floor((at - start) / windowMs);
    const accepted = line.status !== null && line.status < 400;
    if (accepted && line.rateLimitLimit !== null && line.rateLimitRemaining === line.rateLimitLimit - 1)
      if (device !== undefined && !openers.has(window)) openers.set(window, device);
    const key = `${window}|${device}`;
    const before = device === undefined ? undefined : previous.get(key);
    if (device !== undefined) previous.set(key, at);
    if (line.status !== 429) continue;
    if (device === undefined) kinds.unknown += 1;
    else if (before === undefined) kinds.first += 1;
    else if (openers.get(window) === device) kinds.opener += 1;
    else if (at - before >= PAUSED_MS) kinds.paused += 1;
    else kinds.burst += 1;
  }
  return kinds;
}

/** `first/opener/paused/burst` (and `+N unknown` when some refusals were nobody's we know). */
export function formatRefusalKinds(kinds: RefusalKinds): string {
  const known = `${kinds.first}/${kinds.opener}/${kinds.paused}/${kinds.burst}`;
  return kinds.unknown > 0 ? `${known} +${kinds.unknown}?` : known;
}
