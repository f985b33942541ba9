/** The list screens' Export and Print buttons in the language shown, and the file they export. */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import type { Component } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../../src/language';
import type { Animal } from '../../../src/shared/records/animal';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { useLanguage } from '../../../src/shared/i18n';
import type { AppContext } from '../../../src/shell';
import ListTools from '../../../src/toolkit/ListTools.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import WithApp from './WithApp.svelte';

afterEach(async () => {
  cleanup();
  await showLanguage('en');
});

const animals: Animal[] = [
  { id: '9007199254740993', name: 'Rex', categoryId: '1', status: 'available' },
  { id: '5', name: 'Mía', categoryId: '2', status: 'pending' },
];

function renderTools() {
  const api = fakeAdoptionApi();
  const saveFile = vi.fn(async (_input: { suggestedName: string; text: string }) =>
    ok({ saved: true, fileName: 'animales.csv' }),
  );
  Object.defineProperty(api, 'desktop', { value: { saveFile, printPage: vi.fn() } });
  const app = { profiles: { active: { name: 'Refugio' } }, navigation: { go: vi.fn() } } as unknown as AppContext;
  render(WithApp, {
    props: {
      app,
      screen: ListTools as unknown as Component<Record<string, unknown>>,
      screenProps: {
        session: {
          api,
          profileId: 'p1',
          categories: { labels: new CategoryLabels([{ id: '1', label: 'Perros' }]) },
          outbox: { waiting: [{}, {}, {}] },
          print: { use: vi.fn() },
        },
        what: 'Animales',
        animals: () => animals,
        printTitle: 'Animales',
        printSource: 'La lista',
      },
    },
  });
  return saveFile;
}

describe('ListTools', () => {
  it('exports the Spanish columns and says so in Spanish, the waiting animals left out', async () => {
    await useLanguage('es');
    const saveFile = renderTools();
    expect(screen.getByRole('button', { name: 'Imprimir lista' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('export-result').textContent?.trim()).toBe(
        'Exportación de 2 animales guardada como animales.csv. Los 3 en espera de enviarse no están incluidos: todavía no tienen ID.',
      ),
    );
    const text = saveFile.mock.calls[0]?.[0].text ?? '';
    expect(text.split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFnombre,categoría,nombre de categoría,estado,id',
      'Rex,1,Perros,available,9007199254740993',
      'Mía,2,,pending,5',
    ]);
  });

  it('keeps its English words', async () => {
    renderTools();
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('export-result').textContent?.trim()).toBe(
        '2 animals saved as animales.csv. The 3 waiting to send are not in it: they have no ID yet.',
      ),
    );
    expect(screen.getByRole('button', { name: 'Print list' })).toBeTruthy();
  });
});
