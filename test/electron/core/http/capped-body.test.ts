import { describe, expect, it } from 'vitest';
import { BodyTooLarge, readCapped } from '../../../../electron/core/http/capped-body';

/** A stream of `chunks`, recording how far it was read and whether it was cancelled. */
function streamOf(chunks: string[]) {
  const seen = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[seen.pulled];
      if (next === undefined) return controller.close();
      seen.pulled += 1;
      controller.enqueue(encoder.encode(next));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe('readCapped', () => {
  it('reads a body within the limit as UTF-8, and none as empty', async () => {
    expect(await readCapped(streamOf(['{"a":', '"é"}']).body, 100)).toBe('{"a":"é"}');
    expect(await readCapped(null, 100)).toBe('');
  });

  it('stops at the first chunk past the limit and cancels the stream', async () => {
    const { body, seen } = streamOf(['12345', '67890', 'abcde', 'fghij']);
    await expect(readCapped(body, 8)).rejects.toEqual(new BodyTooLarge(8));
    expect(seen).toEqual({ pulled: 2, cancelled: true });
  });

  it('with drain, reads on to the end before rejecting', async () => {
    const { body, seen } = streamOf(['12345', '67890', 'abcde', 'fghij']);
    await expect(readCapped(body, 8, { drain: true })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(seen).toEqual({ pulled: 4, cancelled: false });
  });

  it('rejects and cancels the stream when the signal aborts mid-body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const read = readCapped(body, 100, { signal: controller.signal });
    controller.abort();
    await expect(read).rejects.toThrow('aborted');
    expect(cancelled).toBe(true);
  });
});
