import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { onlyOn } from '../support/platform';
import { call, tempFolder } from './test-helpers';

const ROOT = resolve(import.meta.dirname, '../..');
/** Node's kill() on Windows ends the process outright (TerminateProcess): no SIGTERM handler runs there. */
const posixSignals = onlyOn(['linux', 'darwin'], 'a graceful stop on SIGTERM (Windows has no signals to catch)');

function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/service/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, exit };
}

describe('npm run service (cli.ts)', () => {
  /** Starts the CLI with the demo key and reads its first line. */
  async function started() {
    const { child, exit } = cli(['--seed-animals', '40', '--key', 'demo=free']);
    const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    return { child, exit, first };
  }

  it('prints the base URL as its first line and answers with the demo key', async () => {
    const { child, exit, first } = await started();
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const answer = await call(`${first}/pets`, { key: 'demo' });
    expect(answer.status).toBe(200);
    expect(answer.json).toHaveLength(20);
    child.kill('SIGTERM');
    const { stdout } = await exit;
    expect(stdout).toContain(`Animal Adoption Service listening at ${first}`);
    expect(stdout).not.toContain('demo=');
  }, 20_000);

  it.skipIf(posixSignals)(
    'stops cleanly on SIGTERM (exit code 0)',
    async () => {
      const { child, exit } = await started();
      child.kill('SIGTERM');
      expect((await exit).code).toBe(0);
    },
    20_000,
  );

  it('lists every flag in --help, and refuses an unknown flag or a broken data file', async () => {
    const help = await cli(['--help']).exit;
    expect(help.code).toBe(0);
    for (const flag of [
      '--port',
      '--key',
      '--minute-ms',
      '--day-ms',
      '--ban-after',
      '--ban-seconds',
      '--data',
      '--seed-animals',
      '--id-start',
      '--no-idempotency',
      '--faults',
      '--latency-ms',
      '--seed',
      '--log',
      '--now',
      '--help',
    ]) {
      expect(help.stdout, flag).toContain(flag);
    }
    const unknown = await cli(['--colour', 'blue']).exit;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/colour/);
    const badPlan = await cli(['--key', 'k=gold']).exit;
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toMatch(/unknown plan "gold"/);
    const dataFile = join(await tempFolder(), 'data.json');
    await writeFile(dataFile, '{not json');
    const broken = await cli(['--data', dataFile]).exit;
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/not a valid service data file/);
  }, 30_000);
});
