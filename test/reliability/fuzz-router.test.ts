/**
 * Issue 7.5, fuzzing the boundary: 10,000 seeded random and malformed payloads to every
 * channel of the API (and unknown channel names), through the real app core's router. Only
 * typed errors or valid results come back; no handler throws, nothing rejects unhandled, no
 * answer quotes an API key sent, and Object.prototype is never polluted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src/shared/api';
import { createFuzzer } from './support/fuzz';
import { answerProblem, prototypeIsClean, startFuzzCore } from './support/fuzz-core';
import { watchProcess } from './support/hostile-client';

export const ROUTER_PAYLOADS = Number(process.env.FUZZ_ROUTER_PAYLOADS ?? 10_000);
const watch = watchProcess();
afterAll(() => watch.stop());

describe('fuzzing the router', () => {
  it(`${ROUTER_PAYLOADS} payloads: only typed answers, no throw, no key quoted, no pollution`, async () => {
    const fuzz = await startFuzzCore();
    const fuzzer = createFuzzer(7);
    const problems: string[] = [];
    const codes = new Map<string, number>();
    const perChannel = new Map<string, number>();
    const started = Date.now();
    try {
      for (let i = 0; i < ROUTER_PAYLOADS; i += 1) {
        const call = fuzzer.next();
        const answer = await fuzz.core.router.handle(call.channel, call.input);
        const problem = answerProblem(call.channel, answer);
        if (problem) problems.push(`#${i} ${call.channel}: ${problem}`);
        const text = JSON.stringify(answer);
        for (const key of call.keys) if (text.includes(key)) problems.push(`#${i} ${call.channel}: quoted the key`);
        const code = answer.ok ? 'ok' : answer.error.code;
        codes.set(code, (codes.get(code) ?? 0) + 1);
        perChannel.set(call.channel, (perChannel.get(call.channel) ?? 0) + 1);
        if (!prototypeIsClean()) problems.push(`#${i} ${call.channel}: Object.prototype polluted`);
      }
      // nothing the fuzzer sent ever reaches a later answer either
      const diagnostics = JSON.stringify(await fuzz.core.router.handle('diagnostics', {}));
      expect(diagnostics).not.toMatch(/FUZZKEY/);
    } finally {
      await fuzz.dispose();
    }
    const elapsed = Date.now() - started;
    console.log(
      `router fuzz: ${ROUTER_PAYLOADS} payloads in ${elapsed} ms over ${perChannel.size} channel names; answers ` +
        JSON.stringify(Object.fromEntries([...codes].sort((a, b) => b[1] - a[1]))),
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(fuzz.loggedErrors).toEqual([]);
    expect(watch.problems).toEqual([]);
    for (const channel of CHANNELS) expect(perChannel.get(channel) ?? 0, channel).toBeGreaterThan(20);
    expect(codes.get('ok') ?? 0).toBeGreaterThan(ROUTER_PAYLOADS / 20);
    expect(codes.get('invalid_request') ?? 0).toBeGreaterThan(ROUTER_PAYLOADS / 2);
  }, 120_000);
});
