/**
 * Issue 31.2 (security review 2026-11, finding 8): a secret of fewer than 8 characters is easy to
 * guess, and the core can hide it from what it shows only where it stands alone as a word. Staff
 * who save one (an API key, a proxy password) are told so, in a warning beside "saved"; a longer
 * one gets none.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import KeyField from '../../../src/profiles/KeyField.svelte';
import ProxyLogin from '../../../src/profiles/ProxyLogin.svelte';
import { KeysStore } from '../../../src/shell/keys.svelte';
import { ProxyLoginsStore } from '../../../src/profiles/proxy-logins.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const KEY_WARNING = /This key has fewer than 8 characters: it is easy to guess/;
const PASSWORD_WARNING = /This password has fewer than 8 characters: it is easy to guess/;

describe('saving a short secret', () => {
  afterEach(cleanup);

  it('an API key of 7 characters is saved, with a warning; one of 8 without', async () => {
    const api = fakeAdoptionApi();
    api.handle('setKey', () => ok({ saved: true as const }));
    const keys = new KeysStore(api);
    keys.byProfile.local = { state: 'none', at: 0 };
    render(KeyField, { keys, profileId: 'local' });
    await fireEvent.input(screen.getByLabelText('API key'), { target: { value: 'k3y-abc' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect(await screen.findByText('Key saved.')).toBeTruthy();
    expect(screen.getByText(KEY_WARNING).className).toContain('notice--warn');
    expect(document.body.innerHTML).not.toContain('k3y-abc');

    await fireEvent.input(screen.getByLabelText('Replace the API key'), { target: { value: 'k3y-abcd' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(screen.queryByText(KEY_WARNING)).toBeNull());
    expect(screen.getByText('Key saved.')).toBeTruthy();
  });

  it('a proxy password of 3 characters is saved, with a warning; a longer one without', async () => {
    const api = fakeAdoptionApi();
    api.handle('proxyLogins', () => ok({ logins: [], asked: ['proxy.example.org:3128'] }));
    api.handle('setProxyLogin', () => ok({ saved: true as const }));
    render(ProxyLogin, { logins: new ProxyLoginsStore(api) });
    await fireEvent.input(await screen.findByLabelText('User name'), { target: { value: 'ana' } });
    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'cat' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save proxy login' }));
    expect(await screen.findByText('Proxy login saved for proxy.example.org:3128.')).toBeTruthy();
    expect(screen.getByText(PASSWORD_WARNING).className).toContain('notice--warn');

    // the form empties the password field once saved
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    await waitFor(() => expect(password.value).toBe(''));
    await fireEvent.input(password, { target: { value: 'correct horse' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save proxy login' }));
    await waitFor(() => expect(api.calls.filter((call) => call.channel === 'setProxyLogin')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByText(PASSWORD_WARNING)).toBeNull());
  });
});
