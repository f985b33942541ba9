import { describe, expect, it } from 'vitest';
import { createFaultPicker, parseFaults, parseLatency } from './faults';
import { parseCliArgs, resolveOptions } from './options';
import { parseKeyFlag, parsePlan, PLANS } from './plans';

describe('flag parsing', () => {
  it('parses plans and keys', () => {
    expect(parsePlan('free')).toEqual(PLANS.free);
    expect(parsePlan('enterprise:5000:2000000')).toEqual({ name: 'enterprise', perMinute: 5000, perDay: 2000000 });
    expect(() => parsePlan('enterprise:0:5')).toThrow(/unknown plan/);
    expect(() => parsePlan('gold')).toThrow(/unknown plan/);
    expect(parseKeyFlag('abc=pro')).toEqual(['abc', PLANS.pro]);
    expect(() => parseKeyFlag('=pro')).toThrow(/KEY=PLAN/);
  });

  it('parses faults and latency, refusing bad ones', () => {
    expect(parseFaults('500:0.1,stall:0.02')).toEqual([
      { kind: '500', rate: 0.1 },
      { kind: 'stall', rate: 0.02 },
    ]);
    expect(() => parseFaults('404:0.1')).toThrow(/unknown fault/);
    expect(() => parseFaults('500:2')).toThrow(/between 0 and 1/);
    expect(() => parseFaults('500:0.6,503:0.6')).toThrow(/more than 1/);
    expect(parseLatency('10..20')).toEqual({ min: 10, max: 20 });
    expect(parseLatency('7')).toEqual({ min: 7, max: 7 });
    expect(() => parseLatency('20..10')).toThrow(/MIN..MAX/);
  });

  it('draws faults at roughly their rates', () => {
    const pick = createFaultPicker(parseFaults('500:0.2,503:0.1'), 9);
    const draws = Array.from({ length: 5000 }, pick);
    expect(draws.filter((kind) => kind === '500').length / 5000).toBeCloseTo(0.2, 1);
    expect(draws.filter((kind) => kind === '503').length / 5000).toBeCloseTo(0.1, 1);
  });

  it('maps every CLI flag onto an option, with the documented defaults', () => {
    const args = ['--port', '8080', '--key', 'a=free', '--key', 'b=enterprise:1:2', '--minute-ms', '1000'];
    args.push('--day-ms', '5000', '--ban-after', '3', '--ban-seconds', '7', '--data', 'd.json', '--seed-animals', '4');
    args.push('--id-start', '9007199254740993', '--no-idempotency', '--faults', '500:0.5', '--latency-ms', '1..2');
    args.push('--seed', '5', '--log', 'l.jsonl', '--now', '2030-12-05T00:00:00Z');
    const options = resolveOptions(parseCliArgs(args) ?? {});
    expect(options).toMatchObject({ port: 8080, minuteMs: 1000, dayMs: 5000, banAfter: 3, banMs: 7000 });
    expect(options).toMatchObject({
      dataFile: 'd.json',
      seedAnimals: 4,
      idStart: '9007199254740993',
      idempotency: false,
    });
    expect(options).toMatchObject({ faults: [{ kind: '500', rate: 0.5 }], latency: { min: 1, max: 2 }, seed: 5 });
    expect(options.logFile).toBe('l.jsonl');
    expect(options.keys.get('b')).toEqual({ name: 'enterprise', perMinute: 1, perDay: 2 });
    expect(Math.abs(options.clock.now() - Date.UTC(2030, 11, 5))).toBeLessThan(1000);
    const defaults = resolveOptions(parseCliArgs([]) ?? {});
    expect(defaults).toMatchObject({ host: '127.0.0.1', port: 0, minuteMs: 60000, dayMs: 86400000, banAfter: 10 });
    expect(defaults).toMatchObject({ banMs: 600000, seedAnimals: 0, idStart: '1', idempotency: true, seed: 1 });
    expect(parseCliArgs(['--help'])).toBeNull();
    expect(() => parseCliArgs(['--port', 'x'])).toThrow(/whole number/);
  });
});
