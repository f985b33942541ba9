/** The rate-limit plans of interface.md ("Rate limits by plan"), and how a `--key KEY=PLAN` names one. */
export interface Plan {
  name: string;
  perMinute: number;
  perDay: number;
}

export const PLANS = {
  free: { name: 'free', perMinute: 60, perDay: 1000 },
  pro: { name: 'pro', perMinute: 300, perDay: 10_000 },
  business: { name: 'business', perMinute: 1000, perDay: 100_000 },
} as const satisfies Record<string, Plan>;

const ENTERPRISE = /^enterprise:(\d+):(\d+)$/;

/** Parses `free`, `pro`, `business` or `enterprise:PER_MINUTE:PER_DAY`. Throws on anything else. */
export function parsePlan(spec: string): Plan {
  const named = (PLANS as Record<string, Plan>)[spec];
  if (named) return { ...named };
  const match = ENTERPRISE.exec(spec);
  const perMinute = Number(match?.[1]);
  const perDay = Number(match?.[2]);
  if (!match || perMinute < 1 || perDay < 1 || !Number.isSafeInteger(perMinute) || !Number.isSafeInteger(perDay)) {
    throw new Error(`unknown plan "${spec}" (use free, pro, business or enterprise:PER_MINUTE:PER_DAY)`);
  }
  return { name: 'enterprise', perMinute, perDay };
}

/** Parses one `KEY=PLAN` flag value. */
export function parseKeyFlag(value: string): [key: string, plan: Plan] {
  const at = value.lastIndexOf('=');
  const key = value.slice(0, at);
  if (at <= 0 || !/^[\x21-\x7e]+$/.test(key)) throw new Error(`--key expects KEY=PLAN, got "${value}"`);
  return [key, parsePlan(value.slice(at + 1))];
}
