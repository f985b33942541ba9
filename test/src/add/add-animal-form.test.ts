import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddAnimalFormStore, addedMessage, validateNewAnimal } from '../../../src/add/add-animal-form.svelte';
import AddAnimalForm from '../../../src/add/AddAnimalForm.svelte';
import { type EntryLookup, newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import { ReactiveBox } from '../support/reactive-box.svelte';

describe('validateNewAnimal', () => {
  it('keeps a category id above 2^53 exact and canonical', () => {
    const result = validateNewAnimal(' Rex ', '0009007199254740993', '');
    expect(result).toEqual({ ok: true, animal: { name: 'Rex', categoryId: '9007199254740993' } });
  });

  it('gives a plain message per bad field', () => {
    const result = validateNewAnimal('  ', '12.5', '');
    expect(result).toEqual({
      ok: false,
      errors: { name: 'Name is required.', categoryId: 'Category ID must be a whole number, such as 3.' },
    });
    expect(validateNewAnimal('Rex', '99999999999999999999', 'sold')).toMatchObject({
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

describe('what the form says of the animal it added', () => {
  afterEach(cleanup);

  const entry = (state: OutboxEntry['state'], serverId: string | null = null): OutboxEntry => ({
    ...newOutboxEntry({ name: 'Pepper', categoryId: '3' }, 1),
    localId: 'l1',
    state,
    serverId,
  });

  it('follows the outbox entry: waiting, then sent with its id, set aside, or nothing once it is gone', () => {
    expect(addedMessage('Pepper', { kind: 'pending' })?.text).toBe(
      'Pepper is saved on this device and waiting to send.',
    );
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('sending') })?.text).toMatch(/waiting to send/);
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('sent', '4021') })).toEqual({
      text: 'Pepper was sent (ID 4021).',
      tone: 'ok',
    });
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('needs_attention') })?.tone).toBe('warn');
    expect(addedMessage('Pepper', { kind: 'found', entry: entry('check_needed') })?.text).toMatch(/Check needed/);
    expect(addedMessage('Pepper', { kind: 'gone' })).toBeNull();
  });

  it('changes on screen when the entry is sent', async () => {
    const found = new ReactiveBox<EntryLookup>({ kind: 'pending' });
    const form = new AddAnimalFormStore(async () => ({ ok: true as const, localId: 'l1' }), undefined, {
      entryOf: () => found.value,
    });
    render(AddAnimalForm, { form });
    await fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'Pepper' } });
    await fireEvent.input(screen.getByLabelText(/^Category ID/), { target: { value: '3' } });
    await fireEvent.submit(screen.getByRole('form', { name: 'Add an animal' }));
    expect(await screen.findByText('Pepper is saved on this device and waiting to send.')).toBeTruthy();
    found.value = { kind: 'found', entry: entry('sent', '4021') };
    expect(await screen.findByText('Pepper was sent (ID 4021).')).toBeTruthy();
    expect(screen.queryByText(/waiting to send/)).toBeNull();
  });
});
