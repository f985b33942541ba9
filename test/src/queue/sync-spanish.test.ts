/**
 * What staff read of sending in Spanish (issue 23): the indicator, the entries to check and those
 * the service refused, their lists' headings, and the engine's own failure.
 */
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLanguage } from '../../../src/shared/i18n';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import AttentionEntry from '../../../src/queue/AttentionEntry.svelte';
import CheckNeededEntry from '../../../src/queue/CheckNeededEntry.svelte';
import type { QueueStore } from '../../../src/queue/queue.svelte';
import SyncAttention from '../../../src/queue/SyncAttention.svelte';
import { SyncEngine } from '../../../src/sync/sync-engine';
import SyncIndicator from '../../../src/queue/SyncIndicator.svelte';
import { animal, appError, FakeApi, FakeClock, newAnimal } from '../support/test-helpers';

const checkEntry = (check: OutboxEntry['check']): OutboxEntry => ({
  ...newOutboxEntry(newAnimal('Gatito', '2'), 0),
  localId: 'l1',
  state: 'check_needed',
  attempts: 1,
  doubtSince: 0,
  check,
});

const refusedEntry = (): OutboxEntry => ({
  ...newOutboxEntry(newAnimal('Rex', '9', 'available'), 0),
  localId: 'l2',
  state: 'needs_attention',
  lastError: appError('invalid', 'categoryId 9 does not exist'),
});

const fakeOutbox = (entries: { checkNeeded?: OutboxEntry[]; needsAttention?: OutboxEntry[] } = {}) =>
  ({
    checkNeeded: [],
    needsAttention: [],
    ...entries,
    confirmMatch: vi.fn(async () => null),
    sendMine: vi.fn(async () => null),
    discard: vi.fn(async () => undefined),
  }) as unknown as QueueStore;

describe('sending, in Spanish', () => {
  beforeEach(async () => {
    await useLanguage('es');
  });
  afterEach(async () => {
    cleanup();
    await useLanguage('en');
  });

  it('the indicator counts what waits, what is to check and what was sent', () => {
    const text = () => screen.getByRole('status', { name: 'Conexión y sincronización' }).textContent ?? '';
    render(SyncIndicator, { reach: 'online', waiting: 1234, keyState: 'none', progress: null });
    expect(text()).toContain('1234 en espera de envío\u00a0· falta la clave');
    cleanup();
    render(SyncIndicator, { reach: 'online', waiting: 0, toCheck: 2, progress: null });
    expect(text()).toContain('2 por revisar');
    cleanup();
    render(SyncIndicator, { reach: 'unknown', hasAddress: false, waiting: 0, anySent: true, progress: null });
    expect(text()).toMatch(/Sin dirección del servicio\s*·\s*todo enviado/);
  });

  it('an entry to check names ours and the service’s animal, and its answers', () => {
    const check = { candidates: [animal('9007199254740993', 'Gatito', '2', 'pending')], complete: false, at: 0 };
    render(CheckNeededEntry, { entry: checkEntry(check), outbox: fakeOutbox() });
    const entry = screen.getByTestId('check-entry');
    expect(entry.querySelector('.check__what')?.textContent?.trim()).toBe(
      'Gatito (categoría 2): su último envío no obtuvo una respuesta clara, así que la app no puede saber si el servicio lo guardó.',
    );
    expect(entry.querySelector('.check__what strong bdi')?.textContent).toBe('Gatito');
    expect(entry.textContent).toContain('El servicio tiene un animal parecido que este equipo no había visto antes.');
    expect(entry.textContent).toContain('El servicio muestra más de 100 animales así, por lo que puede haber más.');
    const ours = screen.getByRole('region', { name: 'Introducido en este equipo' });
    expect(ours.textContent).toMatch(/Gatito · categoría 2 · lo decide el servicio/);
    expect(ours.textContent).toMatch(/Introducido a las \d\d:\d\d/);
    const theirs = screen.getByRole('region', { name: 'En el servicio, #9007199254740993' });
    expect(theirs.querySelector('h3')?.textContent).toBe('En el servicio, #9007199254740993');
    expect(theirs.textContent).toMatch(/Gatito · categoría 2 · pendiente/);
    expect(within(theirs).getByRole('button', { name: 'Es este: Gatito #9007199254740993' }).textContent).toBe(
      'Es este',
    );
    expect(screen.getByRole('button', { name: 'Enviar el mío: Gatito' }).textContent).toBe('Enviar el mío');
    expect(entry.textContent).toContain('“Es este” guarda ese animal como esta entrada y no envía nada.');
  });

  it('an entry to check with nothing to compare offers to discard it', () => {
    render(CheckNeededEntry, { entry: checkEntry({ candidates: [], complete: false, at: 0 }), outbox: fakeOutbox() });
    expect(screen.getByText(/^El servicio muestra más de 100 animales de este tipo/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descartar el mío (está en el servicio)' })).toBeTruthy();
  });

  it('a refused entry says why, with its actions', () => {
    render(AttentionEntry, { entry: refusedEntry(), outbox: fakeOutbox() });
    const entry = screen.getByTestId('attention-entry');
    expect(entry.querySelector('.attention__what')?.textContent?.trim()).toBe('Rex (categoría 9) no fue aceptado.');
    expect(entry.querySelector('.attention__why')?.textContent?.trim()).toBe(
      'El servicio respondió: “categoryId 9 does not exist”',
    );
    expect(screen.getByRole('button', { name: 'Editar y reenviar Rex' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descartar Rex' })).toBeTruthy();
  });

  it('the lists of entries to act on have Spanish headings with their counts', () => {
    const refused = refusedEntry();
    render(SyncAttention, {
      outbox: fakeOutbox({ checkNeeded: [checkEntry(null)], needsAttention: [refused, { ...refused, localId: 'l3' }] }),
    });
    expect(
      within(screen.getByRole('region', { name: 'Revisión necesaria' })).getByRole('heading', { level: 2 }).textContent,
    ).toBe('Revisión necesaria (1)');
    expect(
      within(screen.getByRole('region', { name: 'Requiere atención' })).getByRole('heading', { level: 2 }).textContent,
    ).toBe('Requiere atención (2)');
  });

  it('the engine’s own failure is said in Spanish', async () => {
    const clock = new FakeClock();
    const engine = new SyncEngine({
      api: new FakeApi(clock),
      db: () => {
        throw new Error('IndexedDB no responde');
      },
      profileIds: () => ['p1'],
      clock,
    });
    try {
      engine.run();
      await engine.whenIdle();
      expect(engine.progress('p1').lastError).toEqual({
        code: 'internal',
        message: 'No se pudo procesar la cola de envío (IndexedDB no responde).',
      });
    } finally {
      engine.stop();
    }
  });
});
