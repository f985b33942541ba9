import { t } from '../language';

/** A `now` that ticks once a second, for countdowns and "updated HH:MM" labels. */
export class ClockStore {
  now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | null = null;

  // `Date.now()` looked up at each tick (not the function kept at load), so a page clock set
  // later (Playwright's `page.clock`) is the one read.
  constructor(private readonly read: () => number = () => Date.now()) {
    this.now = read();
  }

  start(): void {
    this.#timer ??= setInterval(() => (this.now = this.read()), 1000);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/** A duration as "1 min 05 s" / "42 s" / "3 h 02 min" (unit symbols, written alike in English and Spanish). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
  return `${seconds} s`;
}

/**
 * The time to a rate-limit window's reset. `X-RateLimit-Reset` is a whole Unix second and the
 * service's clock is known within about a second, so a fresh one-minute window reads 60–62 s
 * away: from a minute on, only whole minutes are said ("about 1 min"), never "1 min 02 s".
 */
export function formatReset(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds <= 60) return `${seconds} s`;
  if (seconds < 3600) return t('shell.resetAbout', { minutes: Math.round(seconds / 60) });
  return formatDuration(ms);
}
