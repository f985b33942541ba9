import { describe, expect, it, vi } from 'vitest';
import { buildAdoptionApi, type Transport } from '../../../../src/shared/app-api/client';
import { api as contract, CHANNELS } from '../../../../src/shared/app-api/api';
import { resultSchema } from '../../../../src/shared/app-api/result';
import type * as ResultModule from '../../../../src/shared/app-api/result';

vi.mock('../../../../src/shared/app-api/result', async (importOriginal) => {
  const original = await importOriginal<typeof ResultModule>();
  return { ...original, resultSchema: vi.fn(original.resultSchema) };
});

function transport(
  answer: (channel: string, input: unknown) => unknown,
): Transport & { emit(e: string, p: unknown): void } {
  const listeners = new Map<string, (payload: unknown) => void>();
  return {
    invoke: async (channel, input) => answer(channel, input),
    subscribe: (event, listener) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    },
    emit: (event, payload) => listeners.get(event)?.(payload),
  };
}

describe('buildAdoptionApi', () => {
  it('has one named method per channel and nothing raw', () => {
    const api = buildAdoptionApi(
      transport(() => null),
      'browser',
    );
    for (const channel of CHANNELS) expect(typeof api[channel]).toBe('function');
    expect(Object.keys(api).sort()).toEqual([...CHANNELS, 'desktop', 'host', 'on'].sort());
    expect(api.host).toBe('browser');
    expect(api.desktop).toBeNull();
  });

  it('gives the Electron host its desktop channels, each checked against the contract', async () => {
    const invoked: string[] = [];
    const api = buildAdoptionApi(
      transport((channel) => {
        invoked.push(channel);
        return channel === 'saveFile' ? { ok: true, data: { saved: true, fileName: 'a.csv' } } : { ok: true, data: 1 };
      }),
      'electron',
    );
    expect(Object.keys(api.desktop ?? {}).sort()).toEqual(['printPage', 'saveFile']);
    expect(await api.desktop?.saveFile({ suggestedName: 'a.csv', text: 'x' })).toEqual({
      ok: true,
      data: { saved: true, fileName: 'a.csv' },
    });
    const bad = await api.desktop?.printPage({});
    expect(bad?.ok).toBe(false);
    expect(invoked).toEqual(['saveFile', 'printPage']);
  });

  it('passes valid results through and turns malformed ones into bad_response', async () => {
    const good = { ok: true, data: { hasKey: true } };
    const api = buildAdoptionApi(
      transport((channel) => (channel === 'hasKey' ? good : { ok: true, data: 7 })),
      'electron',
    );
    expect(await api.hasKey({ profileId: 'local' })).toEqual(good);
    const bad = await api.listProfiles({});
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('bad_response');
  });

  it('turns a transport failure into an error value, never a rejection', async () => {
    const api = buildAdoptionApi(
      {
        invoke: () => Promise.reject(new Error('socket closed')),
        subscribe: () => () => undefined,
      },
      'browser',
    );
    const result = await api.hasKey({ profileId: 'local' });
    expect(result).toMatchObject({ ok: false, error: { code: 'offline' } });
  });

  it('delivers only events that match their schema', () => {
    const t = transport(() => null);
    const api = buildAdoptionApi(t, 'browser');
    const listener = vi.fn();
    const off = api.on('connectivity', listener);
    t.emit('connectivity', { profileId: 'local', online: false, at: 1 });
    t.emit('connectivity', { nonsense: true });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith({ profileId: 'local', online: false, at: 1 });
    off();
  });

  it('builds a channel’s result schema on its first call, not before, and only once', async () => {
    const built = () =>
      vi.mocked(resultSchema).mock.calls.filter(([data]) => data === contract.diagnostics.output).length;
    const api = buildAdoptionApi(
      transport(() => ({ ok: true, data: { entries: [] } })),
      'browser',
    );
    expect(built()).toBe(0);
    expect(await api.diagnostics({})).toEqual({ ok: true, data: { entries: [] } });
    expect(await api.diagnostics({})).toEqual({ ok: true, data: { entries: [] } });
    expect(built()).toBe(1);
  });
});
