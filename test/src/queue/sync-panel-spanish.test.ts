/**
 * The sync panel in Spanish (issue 23): what waits offline, the key prompt with what it keeps,
 * a profile with no service address (its link inside the sentence), the notice of a retry.
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyState } from '../../../src/shared/app-api/api';
import { useLanguage } from '../../../src/shared/i18n';
import type { AppContext } from '../../../src/shell';
import type { SetAsideStore } from '../../../src/storage';
import type { TwoCopies } from '../../../src/two-copies';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import type { QueueStore } from '../../../src/queue/queue.svelte';
import { idleProgress, type SyncProgress } from '../../../src/sync/sync-progress';
import { newAnimal } from '../support/test-helpers';
import SyncPanelInApp from '../sync/support/SyncPanelInApp.svelte';

const NOW = 1_000_000;

function show(options: {
  reach?: 'online' | 'offline' | 'unknown';
  key?: KeyState;
  baseUrl?: string;
  waiting?: number;
  progress?: SyncProgress;
}) {
  const waiting: OutboxEntry[] = Array.from({ length: options.waiting ?? 0 }, (_, i) => ({
    ...newOutboxEntry(newAnimal(`Animal ${i}`), 0),
    localId: `l${i}`,
  }));
  const app = {
    profiles: { profiles: [{ id: 'p1', name: 'Feria', baseUrl: options.baseUrl ?? 'http://127.0.0.1:4010/v1' }] },
    connectivity: { state: () => options.reach ?? 'online' },
    keys: { state: () => options.key ?? 'saved' },
    clock: { now: NOW },
  } as unknown as AppContext;
  const session = {
    profileId: 'p1',
    outbox: {
      progress: options.progress ?? idleProgress('p1'),
      waiting,
      checkNeeded: [],
      needsAttention: [],
    } as unknown as QueueStore,
    setAside: { rows: [], copied: {} } as unknown as SetAsideStore,
    storage: { notice: null, dismiss: () => undefined } as unknown as TwoCopies,
  };
  render(SyncPanelInApp, { app, session });
}

describe('SyncPanel in Spanish', () => {
  beforeEach(async () => {
    await useLanguage('es');
  });
  afterEach(async () => {
    cleanup();
    await useLanguage('en');
  });

  it('offline, says what waits and that it is kept', () => {
    show({ reach: 'offline', waiting: 3 });
    expect(screen.getByTestId('sync-waiting').textContent).toBe(
      'Sin conexión: 3 en espera de envío. Están guardados en este equipo y se enviarán cuando el servicio esté disponible.',
    );
  });

  it('asks for a key, with the one waiting entry kept until then', async () => {
    show({ key: 'refused', waiting: 1 });
    const prompt = screen.getByRole('region', { name: 'Se necesita una clave de API' });
    expect(prompt.querySelector('p')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'El servicio necesita una clave de API válida para Feria. La clave guardada fue rechazada. ' +
        '1 en espera de envío se guarda en este equipo hasta entonces; no se pierde nada.',
    );
    cleanup();
    // English stays as it was.
    await useLanguage('en');
    show({ key: 'none', waiting: 2 });
    expect(screen.getByTestId('key-prompt').querySelector('p')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'No key is saved for Feria. The service needs an API key. ' +
        '2 waiting to send are kept on this device until then; nothing is lost.',
    );
  });

  it('with no service address, links to Keys and profiles inside the sentence', () => {
    show({ baseUrl: '', key: 'none' });
    const link = screen.getByRole('link', { name: 'Claves y perfiles' });
    expect(link.closest('p')?.textContent?.trim()).toBe(
      'Este perfil todavía no tiene dirección del servicio. Configúrala en Claves y perfiles.',
    );
  });

  it('says how far the sending is and when it tries again', () => {
    show({
      waiting: 2,
      progress: {
        ...idleProgress('p1'),
        active: true,
        total: 4,
        sent: 2,
        lastError: { code: 'offline', message: 'sin red' },
        nextAttemptAt: NOW + 4_500,
      },
    });
    expect(screen.getByTestId('sync-progress').textContent?.trim()).toBe('Enviando 3 de 4');
    expect(screen.getByTestId('sync-retry').textContent?.trim()).toBe(
      'El último intento no salió bien (sin red). Nuevo intento en 5 s; no se pierde nada.',
    );
  });
});
