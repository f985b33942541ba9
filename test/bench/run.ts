/**
 * `npm run bench [-- NAME…]`: runs the registered benchmarks (all, or those named), prints a
 * table and saves each result as `test/bench/results/<name>.json`. Register a bench by adding it
 * to BENCHES: a module exporting `{ name, run }` (see lib/report.ts).
 */
import { printResults, saveResult, type Bench, type BenchResult } from './lib/report';
import { bundleSizeBench } from './bundle-size';
import { coreCostBench } from './core-cost';
import { dayAtDeskBench } from './day-at-desk';
import { drainBench } from './drain';
import { gatewayDrainBench } from './gateway-drain';
import { refreshStormBench } from './refresh-storm';
import { rendererBench } from './renderer';
import { safetyCopyBench } from './safety-copy';
import { serviceThroughputBench } from './service-throughput';
import { sharedKeyBench } from './shared-key';
import { toolkitBench } from './toolkit';

const BENCHES: Bench[] = [
  serviceThroughputBench,
  drainBench,
  gatewayDrainBench,
  sharedKeyBench,
  refreshStormBench,
  rendererBench,
  coreCostBench,
  bundleSizeBench,
  toolkitBench,
  safetyCopyBench,
  dayAtDeskBench,
];

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !BENCHES.some((bench) => bench.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown bench ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  const results: BenchResult[] = [];
  for (const bench of BENCHES.filter((b) => wanted.length === 0 || wanted.includes(b.name))) {
    console.log(`running ${bench.name}…`);
    const result = await bench.run();
    results.push(result);
    console.log(`saved ${await saveResult(result)}`);
  }
  printResults(results);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
