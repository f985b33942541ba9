import { showLanguage } from '../../../src/language';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddAnimalFormStore, addedMessage, validateNewAnimal } from '../../../src/add/add-animal-form.svelte';
import AddAnimalForm from '../../../src/add/AddAnimalForm.svelte';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';

/** Shows `language` as the window does (its catalogue current, then every `t` redrawn). */
const speak = showLanguage;

afterEach(async () => {
  cleanup();
  await speak('en');
});

const entry = (state: OutboxEntry['state'], serverId: string | null = null): OutboxEntry => ({
  ...newOutboxEntry({ name: 'Pepper', categoryId: '3' }, 1),
  localId: 'l1',
  state,
  serverId,
});

describe('Add animal in Spanish', () => {
  it('says what is wrong with each field in Spanish', async () => {
    await speak('es');
    expect(validateNewAnimal('  ', '12.5', '')).toEqual({
      ok: false,
      errors: {
        name: 'El nombre es obligatorio.',
        categoryId: 'El ID de categoría debe ser un número entero, como 3.',
      },
    });
    expect(validateNewAnimal('x'.repeat(201), '', '')).toEqual({
      ok: false,
      errors: {
        name: 'El nombre puede tener como máximo 200 caracteres.',
        categoryId: 'El ID de categoría es obligatorio.',
      },
    });
  });

  it('says what became of the animal added, with its name and id as they are', async () => {
    await speak('es');
    expect(addedMessage('Pepper', { kind: 'pending' })?.text).toBe(
      'Pepper está guardado en este equipo y en espera de envío.',
    );
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('sent', '4021') })?.text).toBe(
      'Pepper se envió (ID 4021).',
    );
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('sent') })?.text).toBe(
      'Pepper se envió (ID desconocido).',
    );
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('check_needed') })?.text).toBe(
      'Pepper necesita una revisión antes de enviarse: consulta «Revisión necesaria» más arriba.',
    );
  });

  it('shows the form in Spanish: labels, the status values, the button and the failure', async () => {
    await speak('es');
    const enqueue = vi.fn(async () => ({ ok: false as const, message: 'disco lleno' }));
    render(AddAnimalForm, { form: new AddAnimalFormStore(enqueue) });
    expect(screen.getByRole('form', { name: 'Añadir un animal' })).toBeTruthy();
    expect(screen.getByLabelText(/^Nombre \(obligatorio\)/)).toBeTruthy();
    expect(screen.getByLabelText(/^ID de categoría \(un número entero\)/)).toBeTruthy();
    const options = [...(screen.getByLabelText(/^Estado/) as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options).toEqual(['Que lo decida el servicio', 'disponible', 'pendiente', 'vendido']);
    await fireEvent.input(screen.getByLabelText(/^Nombre/), { target: { value: 'Tom' } });
    await fireEvent.input(screen.getByLabelText(/^ID de categoría/), { target: { value: '2' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Añadir animal' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No se guardó: disco lleno');
  });

  it('redraws the messages shown when staff change the language', async () => {
    const form = new AddAnimalFormStore(vi.fn(async () => ({ ok: true as const })));
    render(AddAnimalForm, { form });
    await fireEvent.click(screen.getByRole('button', { name: 'Add animal' }));
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    await speak('es');
    expect(await screen.findByText('El nombre es obligatorio.')).toBeTruthy();
    expect(screen.getByText('El ID de categoría es obligatorio.')).toBeTruthy();
    expect(screen.queryByText('Name is required.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Añadir animal' })).toBeTruthy();
  });
});
