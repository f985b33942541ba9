/**
 * Diagnostics in English and Spanish: the screen and the rate meter say everything in the
 * language shown; the copied report stays English and machine-readable (it goes to developers).
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DiagnosticsScreen from '../../../src/diagnostics/DiagnosticsScreen.svelte';
import { DiagnosticsStore } from '../../../src/diagnostics/diagnostics.svelte';
import type { MeterView } from '../../../src/diagnostics/governor.svelte';
import RateMeter from '../../../src/diagnostics/RateMeter.svelte';
import type { DiagnosticEntry } from '../../../src/shared/app-api/diagnostics';
import { useLanguage } from '../../../src/shared/i18n';
import { UpdatesStore } from '../../../src/shell/updates.svelte';
import { StorageHealthStore } from '../../../src/two-copies/storage-health.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';

afterEach(async () => {
  cleanup();
  await useLanguage('en');
});

const entry: DiagnosticEntry = {
  at: Date.UTC(2026, 10, 24, 13, 5),
  profileId: 'local-demo',
  method: 'GET',
  path: '/pets?limit=20',
  status: 200,
  durationMs: 1234.4,
  rateLimit: { limit: '60', remaining: '59', reset: '30', retryAfter: '5' },
  idempotencyKey: null,
  outcome: 'ok',
  via: 'DIRECT',
};

function diagnosticsStore(clipboard?: Pick<Clipboard, 'writeText'>) {
  const api = fakeAdoptionApi();
  api.handle('diagnostics', () => ok({ entries: [entry] }));
  return new DiagnosticsStore(api, clipboard);
}

describe('the copied diagnostics', () => {
  it('are the same English JSON whatever the language shown; the sentence about them is translated', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    const english = diagnosticsStore({ writeText });
    await english.copy();
    expect(english.copyMessage).toBe('Copied 1 request to the clipboard.');
    await useLanguage('es');
    const spanish = diagnosticsStore({ writeText });
    await spanish.copy();
    expect(spanish.copyMessage).toBe('Se copió 1 petición al portapapeles.');
    const [first, second] = writeText.mock.calls.map(([text]) => text);
    expect(second).toBe(first);
    expect(JSON.parse(second ?? '')).toEqual({ app: 'Adoption Desk', host: 'browser', entries: [entry] });

    const noClipboard = diagnosticsStore({ writeText: () => Promise.reject(new Error('denied')) });
    await noClipboard.copy();
    expect(noClipboard.copyMessage).toBe('No se pudo usar el portapapeles: selecciona el texto de abajo y cópialo.');
    expect(noClipboard.copyFallback).toBe(first);
  });
});

describe('the Diagnostics screen in Spanish', () => {
  it('has its headings, buttons, table and storage events in Spanish', async () => {
    await useLanguage('es');
    const api = fakeAdoptionApi();
    const storage = new StorageHealthStore();
    storage.record({ profileId: 'local-demo', at: entry.at, kind: 'lost' });
    const diagnostics = diagnosticsStore();
    await diagnostics.load();
    render(DiagnosticsScreen, { diagnostics, storage, updates: new UpdatesStore(api) });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Diagnóstico');
    expect(screen.getByRole('button', { name: 'Actualizar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copiar diagnóstico' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Almacenamiento en este equipo' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Actualizaciones de Adoption Desk' })).toBeTruthy();
    expect(screen.getByText(/El navegador cerró el almacenamiento de este perfil \(se borró\)/)).toBeTruthy();
    expect(screen.getByText(/^La última petición \(hasta 200\)\. No se registra ninguna clave/)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Registro de peticiones' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent?.trim())).toEqual([
      'Hora',
      'Perfil',
      'Método',
      'Ruta',
      'Estado',
      'Duración',
      'Cabeceras de límite',
      'Clave de idempotencia',
      'Vía',
    ]);
    const cells = [...screen.getAllByRole('row')[1]!.querySelectorAll('td')].map((td) => td.textContent?.trim());
    // Numbers as Spanish writes them (1234 ms); the service's own values (59/60, GET, DIRECT) as they came.
    expect(cells.slice(1)).toEqual([
      'local-demo',
      'GET',
      '/pets?limit=20',
      '200',
      '1234 ms',
      '59/60 · reinicio 30 · reintento 5',
      '',
      'DIRECT',
    ]);
  });

  it('stays as it was in English', async () => {
    const diagnostics = diagnosticsStore();
    await diagnostics.load();
    render(DiagnosticsScreen, {
      diagnostics,
      storage: new StorageHealthStore(),
      updates: new UpdatesStore(fakeAdoptionApi()),
    });
    expect(screen.getByText('Nothing has happened to the storage since this window opened.')).toBeTruthy();
    expect(screen.getByText(/^The last 1 request \(up to 200\)\. No key or other secret is recorded\.$/)).toBeTruthy();
    expect(screen.getByText('59/60 · reset 30 · retry 5')).toBeTruthy();
    expect(screen.getByText('1,234 ms')).toBeTruthy();
  });
});

describe('the rate meter in Spanish', () => {
  const base: MeterView = {
    state: 'window',
    limit: 14_052,
    remaining: 42,
    resetInMs: 30_000,
    pauseReason: null,
    pausedForMs: 0,
    paceMs: null,
    pacingReason: null,
    heldForMs: 0,
    devices: 3,
    queued: 0,
    notice: null,
  };
  const text = () =>
    screen.getByRole('status', { name: 'Límite de peticiones' }).textContent?.replace(/\s+/g, ' ').trim() ?? '';

  it('says what is left, when it resets and who shares the key', async () => {
    await useLanguage('es');
    render(RateMeter, { meter: base });
    expect(text()).toBe('quedan 42 / 14052 · se reinicia en 30 s · clave compartida con unos 2 dispositivos más');
    expect(screen.getByRole('meter', { name: 'Peticiones que quedan en este intervalo' })).toBeTruthy();
  });

  it('says why requests wait, with the countdown in its own element', async () => {
    await useLanguage('es');
    render(RateMeter, {
      meter: { ...base, state: 'paused', pauseReason: 'retry_after', pausedForMs: 12_000, queued: 3 },
    });
    expect(text()).toBe('En pausa se reanuda en 12 s · el servicio pidió esperar · 3 en espera');
    expect(screen.getByTestId('pause-countdown').textContent).toBe('12 s');
    cleanup();
    render(RateMeter, { meter: { ...base, state: 'pacing', paceMs: 1429, pacingReason: 'learned', queued: 1 } });
    expect(text()).toBe('Más lento 1 petición cada 1,4 s · el servicio pidió ir más despacio · 1 en espera');
    cleanup();
    render(RateMeter, { meter: { ...base, state: 'unknown', limit: null } });
    expect(text()).toBe('Límite de peticiones: todavía sin medir');
    cleanup();
    render(RateMeter, { meter: { ...base, state: 'quota', pauseReason: 'quota_exhausted', pausedForMs: 65_000 } });
    expect(text()).toBe('Cuota diaria agotada se reanuda en 1 min 05 s');
  });
});
