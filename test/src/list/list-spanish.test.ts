/**
 * The lists in Spanish (issue 23): the store's sentences, the rows' and the queued rows' words,
 * the search and sort labels, and names sorted as Spanish orders them (ñ after n).
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnimalListStore } from '../../../src/list/animal-list.svelte';
import { compareNames, searchAndSort } from '../../../src/list/animal-sorting';
import AnimalRows from '../../../src/list/AnimalRows.svelte';
import QueuedRows from '../../../src/list/QueuedRows.svelte';
import SearchSort from '../../../src/list/SearchSort.svelte';
import type { Animal } from '../../../src/shared/records/animal';
import { useLanguage } from '../../../src/shared/i18n';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { deleteProfileDb, openProfileDb } from '../../../src/storage/db';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import { uniqueProfileId } from '../support/test-helpers';

class SizedResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    const height = target.classList.contains('animal-rows__viewport') ? 460 : 46;
    const entry = { target, contentRect: { width: 800, height } } as unknown as ResizeObserverEntry;
    queueMicrotask(() => this.callback([entry], this as unknown as ResizeObserver));
  }
  unobserve() {}
  disconnect() {}
}

const named = (id: string, name: string): { animal: Animal } => ({ animal: { id, name, categoryId: '1' } });

describe('the lists in Spanish', () => {
  beforeEach(async () => {
    await useLanguage('es');
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await useLanguage('en');
  });

  it('say a bad limit and a second Refresh in Spanish', async () => {
    const api = fakeAdoptionApi();
    const answers: Array<() => void> = [];
    api.handle(
      'listPets',
      () => new Promise((resolve) => answers.push(() => resolve(ok({ animals: [], fetchedAt: 1 })))),
    );
    const profileId = uniqueProfileId();
    const list = new AnimalListStore(api, profileId, new AnimalCache(openProfileDb(profileId)));
    try {
      list.limitText = 'diez';
      expect(list.limitError).toBe('El límite debe ser un número entero de 1 a 100.');
      list.limitText = '101';
      expect(list.limitError).toBe('El límite debe estar entre 1 y 100.');
      list.limitText = '20';
      const loading = list.load();
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      await list.refresh();
      expect(list.refreshNote).toBe('Ya se está esperando al servicio: la lista se actualiza en cuanto responda.');
      answers[0]!();
      await loading;
      expect(list.refreshNote).toBeNull();
    } finally {
      await deleteProfileDb(profileId);
    }
  });

  it('sort names as Spanish does: ñ is a letter of its own, after n', async () => {
    const rows = [named('1', 'Ñandú'), named('2', 'Oso'), named('3', 'Nube'), named('4', 'nala')];
    expect(searchAndSort(rows, '', 'name').map((row) => row.animal.name)).toEqual(['nala', 'Nube', 'Ñandú', 'Oso']);
    expect(compareNames('Ñandú', 'Nube')).toBeGreaterThan(0);
    await useLanguage('en');
    // English sorts ñ as an accented n (the base letter only).
    expect(compareNames('Ñandú', 'Nube')).toBeLessThan(0);
  });

  it('show the rows’ labels, the status and the queued chips in Spanish', async () => {
    vi.stubGlobal('ResizeObserver', SizedResizeObserver);
    render(AnimalRows, {
      rows: [{ id: '7', animal: { id: '7', name: 'Rex', categoryId: '3', status: 'sold' }, confirmedAt: 0 }],
      label: 'Animales',
    });
    const [row] = await screen.findAllByTestId('animal-row');
    expect(row!.textContent).toMatch(/Rex\s*Categoría 3\s*vendido\s*ID 7/);
    expect(row!.querySelector('[title="ID de categoría 3"]')).not.toBeNull();
    cleanup();

    const entry: OutboxEntry = { ...newOutboxEntry({ name: 'Pip', categoryId: '4' }, 0), localId: 'l1' };
    render(QueuedRows, { entries: [entry, { ...entry, localId: 'l2', state: 'check_needed' }] });
    expect(screen.getByRole('region', { name: 'Aún no enviados' })).toBeTruthy();
    const [queued, checked] = screen.getAllByTestId('queued-row');
    expect(queued!.textContent).toContain('lo decide el servicio');
    expect(queued!.textContent).toContain('en espera de envío');
    expect(checked!.textContent).toContain('revisión necesaria');
  });

  it('label the search and the sorts in Spanish', () => {
    render(SearchSort, { search: '', sort: 'service', idPrefix: 'es', sorts: ['service', 'name', 'id'] });
    expect(screen.getByLabelText('Buscar por nombre')).toBeTruthy();
    const sort = screen.getByLabelText('Ordenar por');
    expect([...sort.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Orden del servicio',
      'Nombre (A–Z)',
      'ID (de menor a mayor)',
    ]);
  });
});
