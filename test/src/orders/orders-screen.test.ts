/** The Store orders screen: the service's JSON as it came, the words around it in the language shown. */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import OrdersScreen from '../../../src/orders/OrdersScreen.svelte';
import { useLanguage } from '../../../src/shared/i18n';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

afterEach(async () => {
  cleanup();
  await useLanguage('en');
});

function session(answer: 'ok' | 'error') {
  const api = fakeAdoptionApi();
  api.handle('ordersRaw', () =>
    answer === 'ok'
      ? ok({ body: [{ id: 7, status: 'placed' }], fetchedAt: Date.UTC(2026, 10, 24, 13, 5) })
      : err('offline', 'Sin conexión con el servicio.'),
  );
  return { api, profileId: 'local-demo' };
}

describe('the Store orders screen', () => {
  it('shows the JSON as it came, with the note and labels in Spanish', async () => {
    await useLanguage('es');
    render(OrdersScreen, { session: session('ok') });
    const json = await screen.findByRole('region', { name: 'Pedidos tal como los devolvió el servicio' });
    expect(JSON.parse(json.textContent ?? '')).toEqual([{ id: 7, status: 'placed' }]);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Pedidos de la tienda (solo lectura)');
    expect(screen.getByRole('button', { name: 'Actualizar' })).toBeTruthy();
    const note = screen.getByText(/^La interfaz del servicio no describe los pedidos/);
    expect(note.textContent).toBe(
      'La interfaz del servicio no describe los pedidos, así que esto es exactamente el JSON que devolvió para GET /store/orders, tal cual.',
    );
    expect(note.querySelector('code')?.textContent).toBe('GET /store/orders');
    expect(screen.getByText(/^Obtenido a las \d\d:\d\d$/)).toBeTruthy();
  });

  it('says why the orders could not be loaded, in English as before and in Spanish', async () => {
    render(OrdersScreen, { session: session('error') });
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load orders: Sin conexión con el servicio.');
    expect(
      screen.getByText(/^The service’s interface does not describe orders, so this is exactly the JSON/),
    ).toBeTruthy();
    cleanup();
    await useLanguage('es');
    render(OrdersScreen, { session: session('error') });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No se pudieron cargar los pedidos: Sin conexión con el servicio.',
    );
  });
});
