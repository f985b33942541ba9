/** The Import screen in the language shown: its introduction, the preview table and its summary. */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../../src/language';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { useLanguage } from '../../../src/shared/i18n';
import ImportScreen from '../../../src/toolkit/ImportScreen.svelte';
import { freshDb } from '../support/test-helpers';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  cleanup();
  cleanups.splice(0).forEach((close) => close());
  await showLanguage('en');
});

function renderImport() {
  const fresh = freshDb();
  cleanups.push(fresh.close);
  const enqueueMany = vi.fn(async (animals: readonly unknown[]) => ({ ok: true as const, count: animals.length }));
  render(ImportScreen, {
    session: {
      db: fresh.db,
      categories: { labels: new CategoryLabels([{ id: '2', label: 'Gatos' }]) },
      outbox: { enqueueMany },
    },
  });
}

async function choose(text: string, name: string) {
  const input = screen.getByLabelText(/\.csv\)$/) as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [new File([text], name, { type: 'text/csv' })], configurable: true });
  await fireEvent.change(input);
  await screen.findByTestId('import-summary');
}

describe('the Import screen', () => {
  it('introduces the columns in bold and the statuses in Spanish, and previews a file in Spanish', async () => {
    await useLanguage('es');
    renderImport();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Importar desde una hoja de cálculo');
    const intro = screen.getByTestId('import-intro');
    expect([...intro.querySelectorAll('strong')].map((strong) => strong.textContent)).toEqual([
      'nombre',
      'categoría',
      'estado',
    ]);
    expect(intro.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Un archivo CSV (UTF-8, con comas o puntos y coma) cuya primera fila tenga los encabezados nombre, categoría (un ID o un nombre de categoría conocido en este perfil) y, si quieres, estado (disponible, pendiente o vendido). Primero se revisan todas las filas; no se añade nada hasta que confirmes.',
    );
    await choose('Name;Category;Status\nRex;1;disponible\nMia;gatos;adoptado\n', 'perros.csv');
    expect(screen.getByTestId('import-summary').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'perros.csv: 2 filas · 1 se puede añadir · 1 con problemas · 0 pueden estar repetidas.',
    );
    expect(screen.getByTestId('import-problems').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Fila 3 (Mia): El estado “adoptado” no es disponible, pendiente ni vendido (déjalo vacío para que lo decida el servicio).',
    );
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Fila',
      'Nombre',
      'Categoría',
      'Estado',
      'Resultado',
    ]);
    const first = screen.getAllByTestId('import-row')[0] as HTMLTableRowElement;
    expect([...first.cells].map((cell) => cell.textContent)).toEqual(['2', 'Rex', '1', 'disponible', 'Listo.']);
    expect(screen.getByRole('button', { name: 'Añadir 1 animal a la cola' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Filas de perros.csv' })).toBeTruthy();
  });

  it('keeps its English words, and is drawn again when the language changes', async () => {
    renderImport();
    const intro = screen.getByTestId('import-intro');
    expect(intro.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'A CSV file (UTF-8, commas or semicolons) whose first row names the columns name, category (an ID or a category name known on this profile) and, if you like, status (available, pending or sold). Every row is checked first; nothing is added until you confirm.',
    );
    await choose('nombre,categoría\nRex,1\n', 'dogs.csv');
    expect(screen.getByTestId('import-summary').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'dogs.csv: 1 row · 1 can be added · 0 with problems · 0 may be duplicates.',
    );
    await showLanguage('es');
    await tick();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Importar desde una hoja de cálculo');
    expect(screen.getByRole('button', { name: 'Añadir 1 animal a la cola' })).toBeTruthy();
  });
});
