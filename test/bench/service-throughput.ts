/**
 * The local service's own throughput: `GET /pets?limit=20` with 50 concurrent connections
 * (autocannon), the service in its own process, with an enterprise key so the limiter never refuses.
 */
import autocannon from 'autocannon';
import type { Bench, BenchResult } from './lib/report';
import { startServiceProcess } from './lib/service-process';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const KEY = 'bench-key';

export async function benchServiceThroughput(): Promise<BenchResult> {
  const { url, stop } = await startServiceProcess([
    '--seed-animals',
    '200',
    '--key',
    `${KEY}=enterprise:100000000:1000000000`,
  ]);
  try {
    const target = `${url}/pets?limit=20`;
    const headers = { Authorization: `Bearer ${KEY}` };
    await autocannon({ url: target, connections: CONNECTIONS, duration: 1, headers }); // warm-up
    const result = await autocannon({ url: target, connections: CONNECTIONS, duration: DURATION_S, headers });
    return {
      name: 'service-throughput',
      description: 'local Animal Adoption Service, GET /pets?limit=20, 50 connections',
      figures: {
        requestsPerSecond: result.requests.average,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        latencyMaxMs: result.latency.max,
        totalRequests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
      },
      settings: { connections: CONNECTIONS, durationSeconds: DURATION_S, path: '/v1/pets?limit=20', animals: 200 },
    };
  } finally {
    await stop();
  }
}

export const serviceThroughputBench: Bench = { name: 'service-throughput', run: benchServiceThroughput };
