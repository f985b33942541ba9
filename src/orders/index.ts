/** Store orders: the service's `GET /store/orders` shown as it answers (its shape is not given). Used by the app root. */

/** The Store orders screen, loaded on first visit (not part of the app's start-up). */
export const loadOrdersScreen = () => import('./OrdersScreen.svelte');
