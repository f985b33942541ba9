/** One fuzzing run through the real app core's router (fuzz-router.test.ts and its soak variant). */
import { createFuzzer } from './fuzz';
import { answerProblem, prototypeIsClean, startFuzzCore } from './fuzz-core';

export interface RouterFuzzReport {
  problems: string[];
  codes: Map<string, number>;
  perChannel: Map<string, number>;
  loggedErrors: string[];
  diagnosticsText: string;
  elapsedMs: number;
}

export async function runRouterFuzz(count: number, seed: number): Promise<RouterFuzzReport> {
  const fuzz = await startFuzzCore();
  const fuzzer = createFuzzer(seed);
  const problems: string[] = [];
  const codes = new Map<string, number>();
  const perChannel = new Map<string, number>();
  const started = Date.now();
  try {
    for (let i = 0; i < count; i += 1) {
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
    // nothing the fuzzer sent reaches a later answer either
    const diagnosticsText = JSON.stringify(await fuzz.core.router.handle('diagnostics', {}));
    return {
      problems,
      codes,
      perChannel,
      loggedErrors: fuzz.loggedErrors,
      diagnosticsText,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await fuzz.dispose();
  }
}

export function describeRouterFuzz(count: number, report: RouterFuzzReport): string {
  const codes = Object.fromEntries([...report.codes].sort((a, b) => b[1] - a[1]));
  return (
    `router fuzz: ${count} payloads in ${report.elapsedMs} ms over ${report.perChannel.size} channel names; ` +
    `${report.problems.length} problems; answers ${JSON.stringify(codes)}`
  );
}
