/**
 * The one capped body reader of the app's HTTP code, for the HTTP client's responses and the
 * browser host's requests alike; each caller passes its own limit.
 */

/** A body passed the limit its reader was given. */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
  constructor(readonly maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes.`);
  }
}

export interface CappedReadOptions {
  /** Stops the read (the stream is cancelled and the read rejects) when this aborts. */
  signal?: AbortSignal;
  /**
   * Past the limit, read on to the end without keeping anything before rejecting: a server
   * must consume a request's body for its 413 to reach the client. By default the stream is
   * cancelled at once (a response's body is simply abandoned).
   */
  drain?: boolean;
}

/** Reads `body` as UTF-8; rejects with `BodyTooLarge` once it passes `maxBytes`. */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  options: CappedReadOptions = {},
): Promise<string> {
  if (!body) return '';
  const { signal, drain = false } = options;
  const reader = body.getReader();
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw new Error('aborted while reading the body');
      if (done) break;
      size += value.byteLength;
      if (size <= maxBytes) chunks.push(value);
      else if (!drain) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (size > maxBytes) throw new BodyTooLarge(maxBytes);
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}
