import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import KeyField from '../../../src/components/KeyField.svelte';
import { KeysStore } from '../../../src/stores/keys.svelte';
import { fakeAdoptionApi, ok } from '../fake-adoption-api';

const SECRET = 'sk-live-5ecret-value-123';

describe('KeyField (write-only)', () => {
  afterEach(cleanup);

  it('sends the key to the core, empties the field and only ever says "key saved"', async () => {
    const api = fakeAdoptionApi();
    api.handle('setKey', () => ok({ saved: true as const }));
    const keys = new KeysStore(api);
    keys.hasKey.local = false;
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
