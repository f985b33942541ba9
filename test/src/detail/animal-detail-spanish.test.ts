import { showLanguage } from '../../../src/language';
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import AnimalDetailScreen from '../../../src/detail/AnimalDetailScreen.svelte';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { deleteProfileDb, openProfileDb } from '../../../src/storage/db';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const speak = showLanguage;

const profileIds: string[] = [];

afterEach(async () => {
  cleanup();
  await speak('en');
  for (const id of profileIds.splice(0)) await deleteProfileDb(id);
});

function session(api: ReturnType<typeof fakeAdoptionApi>) {
  const profileId = `detail-es-${profileIds.length + 1}`;
  profileIds.push(profileId);
  const db = openProfileDb(profileId);
  return {
    api,
    profileId,
    db,
    cache: new AnimalCache(db),
    categories: { labels: new CategoryLabels([{ id: '1', label: 'Perros' }]) },
  };
}

describe('The animal detail in Spanish', () => {
  it('labels the animal, keeps its name and category name as they are, and says when it was confirmed', async () => {
    await speak('es');
    const api = fakeAdoptionApi();
    const confirmedAt = new Date(2026, 10, 24, 14, 5).getTime();
    const animal = { id: '7', name: 'Rex', categoryId: '1', status: 'sold' as const };
    api.handle('getPet', () =>
      ok({ animal, fetchedAt: confirmedAt, deprecation: { deprecation: null, sunset: null } }),
    );
    render(AnimalDetailScreen, { session: session(api), id: '7' });
    expect(await screen.findByText('Al día: el servicio acaba de confirmar este animal.')).toBeTruthy();
    const detail = await screen.findByTestId('animal-detail');
    const terms = [...detail.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms).toEqual(['Nombre', 'ID', 'Categoría', 'Estado', 'Confirmado por el servicio por última vez']);
    expect(screen.getByTestId('detail-category').textContent).toBe('1 · Perros');
    expect(screen.getByTestId('confirmed-at').textContent).toBe('14:05');
    expect(screen.getByRole('link', { name: 'Volver a la lista' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Actualizar desde el servicio' })).toBeTruthy();
  });

  it('says the service has no such animal', async () => {
    await speak('es');
    const api = fakeAdoptionApi();
    api.handle('getPet', () => err('not_found', 'Pet not found', { status: 404 }));
    render(AnimalDetailScreen, { session: session(api), id: '8' });
    expect((await screen.findByRole('alert')).textContent).toBe('El servicio no tiene ningún animal con el ID 8.');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Animal con ID 8');
  });
});
