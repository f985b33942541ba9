/**
 * When the governor's next request may go, besides pauses and the window: the pace learned
 * for a service that says little (adaptive-rate.ts) and this device's share of a key used by
 * others too (device-share.ts). One place that feeds both from each response.
 */
import { backoffDelay, REQUEST_BACKOFF } from '../../../src/shared/basics/backoff';
import type { PacingReason } from '../../../src/shared/app-api/rate-limit';
import type { AdaptiveRate } from './adaptive-rate';
import { DeviceShare } from './device-share';
import { type Pause, pauseAfter429 } from './pause-policy';
import { type HeaderSource, readRateLimit } from './rate-limit-headers';
import type { RateWindow } from './rate-window';

export class PacingGate {
  private readonly share: DeviceShare;
  private resetKey: string | null = null;

  constructor(
    private readonly window: RateWindow,
    private readonly adaptive: AdaptiveRate,
    private readonly random: () => number,
  ) {
    this.share = new DeviceShare(random);
  }

  /** Learns from the headers of the response to our `seq`-th request (`refused`: a 429). */
  observe(headers: HeaderSource, now: number, sentAt: number, seq: number, refused: boolean): void {
    const reading = readRateLimit(headers, now, this.window.skewMs);
    if (reading.remaining === null) {
      this.adaptive.onHeaderless();
      return;
    }
    this.adaptive.onHeaders(now);
    if (refused) this.share.onRefused(seq);
    const resetKey = headers.get('X-RateLimit-Reset');
    if (resetKey === null || reading.resetAt === null || seq === 0) return;
    this.resetKey = resetKey;
    this.share.observe({
      seq,
      remaining: reading.remaining,
      resetKey,
      at: now,
      sentAt,
      limit: reading.limit,
      headerResetAt: reading.resetAt,
    });
  }

  /**
   * The pause after a refusal (429, or a 503 taken as one): Retry-After, else the window's
   * reset, else, when it said nothing of a window (no readable X-RateLimit-*), the learned
   * pause (the rate is cut too, even when Retry-After decides the wait); else a backoff for
   * the `consecutive`-th refusal in a row.
   */
  pauseAfterRefusal(headers: HeaderSource | null, now: number, consecutive: number, marginMs: number): Pause {
    const reading = headers ? readRateLimit(headers, now, this.window.skewMs) : null;
    const toldWindow = reading !== null && (reading.remaining !== null || reading.resetAt !== null);
    const fallback = toldWindow
      ? { waitMs: backoffDelay(consecutive - 1, REQUEST_BACKOFF, this.random), reason: 'backoff' as const }
      : { waitMs: this.adaptive.onRefused(now), reason: 'throttled' as const };
    const { remaining, resetAt, skewMs } = this.window;
    return pauseAfter429(headers, now, { remaining, resetAt, skewMs }, fallback, marginMs);
  }

  onAccepted(held: boolean): void {
    this.adaptive.onAccepted(held);
  }

  onSent(now: number): void {
    this.adaptive.onSent(now);
  }

  /** When the next request may go (`now`: at once), given ours in flight and the tasks still queued. */
  readyAt(now: number, inFlight: number, queued: number): number {
    const paced = this.adaptive.readyAt(now);
    const resetAt = this.window.resetAt;
    // the first window change's reserve holds a device that may be alone as far as it knows (device-share.ts)
    const reserved = this.share.reserveReadyAt(now, inFlight, resetAt, queued);
    if (!this.share.othersActive(now)) return Math.max(paced, reserved);
    return Math.max(paced, reserved, this.share.readyAt(now, inFlight, resetAt, queued));
  }

  /**
   * When to come back after the window ending at `resetAt` was used up: alone on the key, at
   * the reset plus `marginMs`; when others used it lately, or its first window was found used
   * (device-share.ts, sharedOrFoundUsed), once no refusal of that window can still make the key
   * wait (returnAt; `backlog`: the requests this device still has to send, queued or under way).
   */
  comeBackAt(resetAt: number, now: number, marginMs: number, backlog: number): number {
    return this.resetKey !== null && this.share.sharedOrFoundUsed(now)
      ? this.share.returnAt(resetAt, this.resetKey, backlog)
      : resetAt + marginMs;
  }

  /** Whether other devices used the key lately, as far as this device saw (device-share.ts, keyShared). */
  keyShared(now: number): boolean {
    return this.share.keyShared(now);
  }

  devices(now: number): number {
    return this.share.devices(now);
  }

  pacing(now: number, inFlight: number): { intervalMs: number; reason: PacingReason } | null {
    const rate = this.adaptive.rate;
    if (rate !== null)
      return { intervalMs: Math.round(1000 / rate), reason: this.adaptive.isLearned ? 'learned' : 'assumed_plan' };
    if (!this.share.othersActive(now)) return null;
    const remaining = this.window.remaining;
    const resetAt = this.window.resetAt;
    if (remaining === null || resetAt === null || resetAt <= now || remaining - inFlight <= 0) return null;
    // our share of what remains, spread over the time to the reset (to 0.1 s: it is for people)
    const share = (remaining - inFlight) / this.share.devices(now);
    const intervalMs = Math.max(100, Math.round((resetAt - now) / Math.max(1, share) / 100) * 100);
    return { intervalMs, reason: 'shared_key' };
  }
}
