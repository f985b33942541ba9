import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import KeyField from '../../../src/profiles/KeyField.svelte';
import { KeysStore } from '../../../src/shell/keys.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const SECRET = 'sk-live-5ecret-value-123';

describe('KeyField (write-only)', () => {
  afterEach(cleanup);

  it('sends the key to the core, empties the field and only ever says "key saved"', async () => {
    const api = fakeAdoptionApi();
    api.handle('setKey', () => ok({ saved: true as const }));
    const keys = new KeysStore(api);
    keys.byProfile.local = { state: 'none', at: 0 };
    render(KeyField, { keys, profileId: 'local' });
    expect(screen.getByTestId('key-state').textContent).toContain('No key saved');
    const input = screen.getByLabelText('API key') as HTMLInputElement;
    expect(input.type).toBe('password');
    await fireEvent.input(input, { target: { value: SECRET } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(screen.getByTestId('key-state').textContent).toContain('Key saved'));
    expect(api.calls).toContainEqual({ channel: 'setKey', input: { profileId: 'local', key: SECRET } });
    expect((screen.getByLabelText('Replace the API key') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(JSON.stringify(keys)).not.toContain(SECRET);
  });

  it('gives every field its own id, so two on one screen each have their own label', () => {
    const keys = new KeysStore(fakeAdoptionApi());
    keys.byProfile.local = { state: 'none', at: 0 };
    render(KeyField, { keys, profileId: 'local', compact: true });
    render(KeyField, { keys, profileId: 'local' });
    const fields = screen.getAllByLabelText('API key');
    expect(fields).toHaveLength(2);
    expect(fields[0]!.id).not.toBe(fields[1]!.id);
    const labels = [...document.querySelectorAll('label')];
    expect(labels.map((label) => label.htmlFor)).toEqual(fields.map((field) => field.id));
  });

  it('compact: one row with the field and Save key, no key state, no Test or Remove', () => {
    const keys = new KeysStore(fakeAdoptionApi());
    keys.byProfile.local = { state: 'none', at: 0 };
    render(KeyField, { keys, profileId: 'local', compact: true });
    expect(screen.getByLabelText('API key')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save key' })).toBeTruthy();
    expect(screen.queryByTestId('key-state')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test key' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove key' })).toBeNull();
  });

  it('rejects a key with spaces without sending it', async () => {
    const api = fakeAdoptionApi();
    const keys = new KeysStore(api);
    render(KeyField, { keys, profileId: 'local' });
    await fireEvent.input(screen.getByLabelText('API key'), { target: { value: 'has space' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect(await screen.findByText(/Key not saved: the key contains spaces/)).toBeTruthy();
    expect(api.calls.filter((call) => call.channel === 'setKey')).toEqual([]);
  });
});
