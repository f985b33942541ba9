/**
 * `npm run service -- [flags]`: starts the local Animal Adoption Service. The first line of stdout
 * is exactly the base URL (scripts read it); `--help` lists the flags.
 */
import { errorMessage } from '../../src/shared/basics/errors';
import { startService } from './index';
import { HELP, parseCliArgs } from './options';

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`service: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === null) {
    process.stdout.write(HELP);
    return;
  }
  const service = await startService(options);
  // Before the first line: whoever reads it may stop the service at once.
  const shutdown = () => {
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  const plans = Object.values(options.keys ?? {}).map((plan) => (typeof plan === 'string' ? plan : plan.name));
  process.stdout.write(
    `${service.url}\n` +
      `Animal Adoption Service listening at ${service.url}\n` +
      `animals: ${service.animalCount()}; API keys: ${plans.length}${plans.length ? ` (plans: ${plans.join(', ')})` : ''}\n` +
      (service.dataFile ? `data file: ${service.dataFile}\n` : 'data: in memory only\n') +
      (service.logFile ? `request log: ${service.logFile}\n` : ''),
  );
  if (plans.length === 0) process.stderr.write('service: no --key given: every request will get 401\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`service: ${errorMessage(error)}\n`);
  process.exit(1);
});
