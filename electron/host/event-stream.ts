/**
 * The core's events to browser pages over Server-Sent Events: one `event:`/`data:` message
 * per core event, in emit order, with an increasing `id`; a comment line as heartbeat so
 * idle connections stay open; everything cleaned up when the page goes away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventName } from '../../src/shared/app-api/api';
import { createEmitter, type Disposer } from '../../src/shared/basics/emitter';
import { SECURITY_HEADERS } from './static-files';

export interface EventSourceLike {
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void;
}

export interface EventStreams {
  open(request: IncomingMessage, response: ServerResponse): void;
  /** Ends every open stream (when the host stops). */
  closeAll(): void;
  readonly openCount: number;
}

export function formatEvent(id: number, event: string, payload: unknown): string {
  const data = JSON.stringify(payload ?? null);
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}

export function createEventStreams(source: EventSourceLike, heartbeatMs: number): EventStreams {
  /** Told when the host stops: each open stream ends itself (and its subscription counts it open). */
  const stopping = createEmitter();

  return {
    open(request, response) {
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      response.flushHeaders();
      // Opening comment: lets clients (and tests) know the stream is live.
      response.write(': connected\nretry: 2000\n\n');
      let nextId = 1;
      const unsubscribe = source.subscribe((event, payload) => {
        response.write(formatEvent(nextId++, event, payload));
      });
      const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref();
      let closed = false;
      let leave: Disposer = () => {};
      const close = (): void => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        leave();
        if (!response.writableEnded) response.end();
      };
      leave = stopping.on(close);
      request.on('close', close);
      response.on('close', close);
      response.on('error', close);
    },
    closeAll() {
      stopping.emit();
    },
    get openCount() {
      return stopping.size;
    },
  };
}
