/** The figures of a run of days (kept apart from the simulator, so the command line loads none of the app). */

export interface Totals {
  days: number;
  animals: number;
  lost: number;
  twice: number;
  untrue: number;
  waits: number;
  keys: number;
  steps: number;
  virtualMs: number;
  tasks: number;
  requests: number;
  checksAnswered: number;
  staffDuplicates: number;
  /** What befell the days, by kind. */
  counts: Record<string, number>;
}

export function emptyTotals(): Totals {
  return {
    days: 0,
    animals: 0,
    lost: 0,
    twice: 0,
    untrue: 0,
    waits: 0,
    keys: 0,
    steps: 0,
    virtualMs: 0,
    tasks: 0,
    requests: 0,
    checksAnswered: 0,
    staffDuplicates: 0,
    counts: {},
  };
}

/** Adds `more` into `totals`. */
export function addTotals(totals: Totals, more: Totals): void {
  for (const key of Object.keys(totals) as Array<keyof Totals>) {
    if (key === 'counts') continue;
    totals[key] += more[key];
  }
  for (const [kind, n] of Object.entries(more.counts)) totals.counts[kind] = (totals.counts[kind] ?? 0) + n;
}

/**
 * The closing line of a run: the five figures, then, only when there were any, the days that
 * failed by waiting or by a key where it must not be (so such a run never reads clean).
 */
export function summaryLine(totals: Totals): string {
  const more = [
    ...(totals.waits > 0 ? [`${totals.waits} still waiting`] : []),
    ...(totals.keys > 0 ? [`${totals.keys} keys where they must not be`] : []),
  ];
  return [
    `${totals.days} days, ${totals.animals} animals, ${totals.lost} lost, ${totals.twice} sent twice, ${totals.untrue} untrue screens`,
    ...more,
  ].join(', ');
}
