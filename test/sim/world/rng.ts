/**
 * The day's chance: one seeded generator (the local service's mulberry32) from which the world
 * draws everything that is not a step of the day (latencies, which bytes a crash keeps, ids,
 * the backoff's jitter through `Math.random`).
 */
import { mulberry32, type Random } from '../../service/prng';

export type { Random };

export class Rng {
  readonly next: Random;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from nothing');
    return item;
  }

  /** A version-4 UUID made of the generator's bits (what `crypto.randomUUID()` returns). */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 32; i += 1) hex += Math.floor(this.next() * 16).toString(16);
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
