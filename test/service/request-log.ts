/**
 * `--log FILE`: one JSON line per request, written before the response is sent (so a client that
 * has its answer can read the line). It carries a hash of the API key, never the key.
 */
import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface RequestLogLine {
  /** ISO time the request arrived (service clock). */
  time: string;
  /** sha256 of the API key, 12 hex digits; null when no known key was sent. */
  keyHash: string | null;
  client: string;
  method: string;
  path: string;
  /** null when no response was sent (connection reset, stall). */
  status: number | null;
  rateLimitLimit: number | null;
  rateLimitRemaining: number | null;
  rateLimitReset: number | null;
  retryAfter: number | null;
  idempotencyKey: string | null;
  latencyMs: number;
  /** Whether the subject was told to wait (a pending Retry-After or a ban) when this request arrived. */
  toldToWait: boolean;
  fault: string | null;
  /** `response`, or what happened instead: `reset`, `stalled`, `client-closed`. */
  outcome: 'response' | 'reset' | 'stalled' | 'client-closed';
  /** The id created by this request, if it created one. */
  createdId: string | null;
}

export class RequestLog {
  #closed = false;

  constructor(
    private readonly file: string | undefined,
    private readonly onLine: (line: RequestLogLine) => void = () => {},
  ) {}

  write(line: RequestLogLine): void {
    // A request the stopped service was still working on (its latency wait, its save) ends after
    // stop(): the service is gone, its folder may be too, so nothing more is written.
    if (this.#closed) return;
    if (this.file) appendFileSync(this.file, `${JSON.stringify(line)}\n`);
    this.onLine(line);
  }

  /** Called once the service has stopped: later lines are dropped. */
  close(): void {
    this.#closed = true;
  }
}

/** Reads a request log (skips a torn last line). */
export async function readRequestLog(file: string): Promise<RequestLogLine[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const lines: RequestLogLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line) as RequestLogLine);
    } catch {
      // a line cut short by a kill
    }
  }
  return lines;
}
