/**
 * The governor's pause of one profile and the probe after it (governor.ts decides when each
 * applies): a pause (429, ban, the window used up) only ever grows until it ends; after it,
 * and before the first answer, one request goes alone (the probe); and the notice staff see.
 */
import type { GovernorSnapshot, PauseReason } from '../../src/shared/rate-limit';
import type { Pause } from './pause-policy';

export class PauseState {
  until: number | null = null;
  reason: PauseReason | null = null;
  /** Starts true: until a first response tells the state of the window, one request goes alone. */
  needProbe = true;
  answered = false;
  notice: string | null = null;

  /** Ends a pause whose time has come; true when one just ended. */
  expire(now: number): boolean {
    if (this.until === null || now < this.until) return false;
    this.until = null;
    this.reason = null;
    return true;
  }

  /** Starts or extends a pause (never shortens one in force); a probe must go first afterwards. */
  apply(pause: Pause): void {
    if (this.until === null || pause.until >= this.until) {
      this.until = pause.until;
      this.reason = pause.reason;
    } else if (pause.reason === 'banned') {
      this.reason = 'banned';
    }
    if (pause.notices.length > 0) this.notice = pause.notices.join(' ');
    this.needProbe = true;
  }

  /** What the snapshot says of the pause, the probe and the notice. */
  view(now: number): Pick<GovernorSnapshot, 'pausedUntil' | 'pauseReason' | 'dailyExhausted' | 'probing' | 'notice'> {
    const paused = this.until !== null && this.until > now;
    return {
      pausedUntil: paused ? this.until : null,
      pauseReason: paused ? this.reason : null,
      dailyExhausted: paused && this.reason === 'quota_exhausted',
      probing: this.needProbe && this.answered,
      notice: this.notice,
    };
  }
}
