import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AddAnimalForm from '../../../src/components/AddAnimalForm.svelte';
import { AddAnimalFormStore, validateNewPet } from '../../../src/stores/add-animal-form.svelte';

describe('validateNewPet', () => {
  it('keeps a category id above 2^53 exact and canonical', () => {
    const result = validateNewPet(' Rex ', '0009007199254740993', '');
    expect(result).toEqual({ ok: true, pet: { name: 'Rex', categoryId: '9007199254740993' } });
  });

  it('gives a plain message per bad field', () => {
    const result = validateNewPet('  ', '12.5', '');
    expect(result).toEqual({
      ok: false,
      errors: { name: 'Name is required.', categoryId: 'Category ID must be a whole number, such as 3.' },
    });
    expect(validateNewPet('Rex', '99999999999999999999', 'sold')).toMatchObject({
      ok: false,
      errors: { categoryId: 'Category ID is too large: it must fit a 64-bit whole number.' },
    });
  });
});

describe('AddAnimalForm', () => {
  afterEach(cleanup);

  it('shows inline messages and does not enqueue an invalid animal', async () => {
    const enqueue = vi.fn(async () => ({ ok: true as const }));
    render(AddAnimalForm, { form: new AddAnimalFormStore(enqueue) });
    await fireEvent.click(screen.getByRole('button', { name: 'Add animal' }));
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    expect(screen.getByText('Category ID is required.')).toBeTruthy();
    expect(screen.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
    expect(enqueue).not.toHaveBeenCalled();
  });

  it('submits, enqueues the exact payload and resets for the next animal', async () => {
    const enqueue = vi.fn(async () => ({ ok: true as const }));
    const form = new AddAnimalFormStore(enqueue);
    render(AddAnimalForm, { form });
    await fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'Biscuit' } });
    await fireEvent.input(screen.getByLabelText(/^Category ID/), { target: { value: '9223372036854775807' } });
    // happy-dom does not match `:checked` on options, which Svelte's select binding reads.
    form.status = 'pending';
    await fireEvent.submit(screen.getByRole('form', { name: 'Add an animal' }));
    expect(enqueue).toHaveBeenCalledWith({ name: 'Biscuit', categoryId: '9223372036854775807', status: 'pending' });
    expect(await screen.findByText('Biscuit is saved on this device and waiting to send.')).toBeTruthy();
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/^Category ID/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/^Status/) as HTMLSelectElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText(/^Name/));
  });

  it('keeps what was typed when the outbox could not save it', async () => {
    const enqueue = vi.fn(async () => ({ ok: false as const, message: 'disk full' }));
    render(AddAnimalForm, { form: new AddAnimalFormStore(enqueue) });
    await fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'Tom' } });
    await fireEvent.input(screen.getByLabelText(/^Category ID/), { target: { value: '2' } });
    await fireEvent.submit(screen.getByRole('form', { name: 'Add an animal' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Not saved: disk full');
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Tom');
  });
});
