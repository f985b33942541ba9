import { showLanguage } from '../../../src/language';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CategoriesStore } from '../../../src/categories/categories.svelte';
import CategoryEditor from '../../../src/categories/CategoryEditor.svelte';
import { CategoryError, CategoryTable } from '../../../src/categories/category-table';
import { fakeAdoptionApi } from '../support/fake-adoption-api';
import { FakeClock, freshDb } from '../support/test-helpers';

const speak = showLanguage;

const cleanups: (() => void)[] = [];

afterEach(async () => {
  cleanup();
  cleanups.splice(0).forEach((done) => done());
  await speak('en');
});

function database() {
  const fresh = freshDb();
  cleanups.push(fresh.close);
  return fresh.db;
}

function store() {
  const categories = new CategoriesStore(database());
  categories.start();
  cleanups.push(() => categories.stop());
  return categories;
}

const categoryFile = (categories: { id: string; label: string }[], name: string) =>
  new File([JSON.stringify({ kind: 'adoption-desk.categories', version: 1, categories })], name);

describe('Category names in Spanish', () => {
  it('the table refuses a bad id in Spanish', async () => {
    await speak('es');
    const table = new CategoryTable(database(), new FakeClock());
    const refused = table.set('1.5', 'Pájaros');
    await expect(refused).rejects.toThrow(CategoryError);
    await expect(refused).rejects.toThrow('El ID de categoría debe ser un número entero, como 3.');
  });

  it("says what an edit and a file did, and what a file would change, in Spanish; staff's names stay as typed", async () => {
    await speak('es');
    const categories = store();
    expect(await categories.save('1', 'Dogs')).toBeNull();
    expect(categories.notice).toBe('La categoría 1 ahora se llama «Dogs».');
    await vi.waitFor(() => expect(categories.labels.labelOf('1')).toBe('Dogs'));
    await categories.choose(new File([new Uint8Array([0xff, 0xfe, 0xfd])], 'roto.json'));
    expect(categories.fileProblem).toBe('roto.json no se pudo leer como texto. No se cambió nada.');
    await categories.choose(categoryFile([{ id: '2', label: 'Gatos' }], 'refugio.json'));
    await categories.usePending();
    expect(categories.notice).toBe(
      'Se usan los nombres de categoría de refugio.json: 1 añadidos, 0 renombrados, 1 quitados.',
    );
  });

  it('a notice follows a change of language', async () => {
    const categories = store();
    await categories.save('4', 'Birds');
    expect(categories.notice).toBe('Category 4 is now called “Birds”.');
    await speak('es');
    expect(categories.notice).toBe('La categoría 4 ahora se llama «Birds».');
  });

  it('the editor shows its labels and the pending file in Spanish', async () => {
    await speak('es');
    const categories = store();
    await categories.save('1', 'Perros');
    await vi.waitFor(() => expect(categories.labels.labelOf('1')).toBe('Perros'));
    render(CategoryEditor, { session: { api: fakeAdoptionApi(), categories }, profileName: 'Local demo' });
    expect(screen.getByRole('heading', { name: 'Nombres de categoría' })).toBeTruthy();
    expect(screen.getByText(/Ponles nombre aquí para Local demo:/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cambiar el nombre de Perros' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Poner nombre a una categoría' })).toBeTruthy();
    const input = screen.getByLabelText('Usar los nombres de un archivo…') as HTMLInputElement;
    const file = categoryFile(
      [
        { id: '1', label: 'Canes' },
        { id: '3', label: 'Loros' },
      ],
      'refugio.json',
    );
    Object.defineProperty(input, 'files', { value: [file] });
    await fireEvent.change(input);
    const pending = await screen.findByTestId('category-pending');
    expect(pending.querySelector('p')?.textContent?.trim()).toBe(
      'refugio.json tiene 2 nombres de categoría. Usarlo sustituye los nombres de este perfil: 1 añadidos, 1 renombrados, 0 quitados, 0 sin cambios.',
    );
    expect(pending.textContent).toContain('1: «Perros» pasa a ser «Canes»');
    expect(screen.getByRole('button', { name: 'Usar estos nombres' })).toBeTruthy();
  });
});
