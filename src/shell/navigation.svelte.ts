/**
 * Which screen is shown: the hash routes of the app (`#/animals`, `#/animals/new`, `#/animals/<id>`,
 * `#/saved`, `#/profiles` (Keys and profiles), …). Named "navigation" so as not to be confused with the core's `Router`
 * (electron/core/api/router.ts), which dispatches the app API's channels.
 */
import { isInt64String } from '../shared/records/int64';

export type Route =
  | { name: 'animals' }
  | { name: 'new' }
  | { name: 'detail'; id: string }
  | { name: 'saved' }
  | { name: 'import' }
  | { name: 'print' }
  | { name: 'profiles' }
  | { name: 'orders' }
  | { name: 'diagnostics' }
  | { name: 'not_found'; hash: string };

export const HREF = {
  animals: '#/animals',
  new: '#/animals/new',
  saved: '#/saved',
  import: '#/import',
  print: '#/print',
  profiles: '#/profiles',
  orders: '#/orders',
  diagnostics: '#/diagnostics',
  detail: (id: string) => `#/animals/${id}`,
} as const;

/** Reads a location hash as a route; an empty hash is the list. */
export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  if (path === '' || path === '/' || path === '/animals') return { name: 'animals' };
  if (path === '/animals/new') return { name: 'new' };
  if (path === '/saved') return { name: 'saved' };
  if (path === '/import') return { name: 'import' };
  if (path === '/print') return { name: 'print' };
  if (path === '/profiles') return { name: 'profiles' };
  if (path === '/orders') return { name: 'orders' };
  if (path === '/diagnostics') return { name: 'diagnostics' };
  const detail = /^\/animals\/([^/]+)$/.exec(path);
  if (detail?.[1] && isInt64String(detail[1])) return { name: 'detail', id: detail[1] };
  return { name: 'not_found', hash };
}

export class NavigationStore {
  route = $state<Route>({ name: 'animals' });
  readonly #win: Window;
  readonly #onHashChange = () => {
    this.route = parseHash(this.#win.location.hash);
  };

  constructor(win: Window = window) {
    this.#win = win;
    this.route = parseHash(win.location.hash);
    win.addEventListener('hashchange', this.#onHashChange);
  }

  /** Navigates to a hash such as `HREF.new` (adds a history entry). */
  go(hash: string): void {
    if (this.#win.location.hash === hash) return;
    this.#win.location.hash = hash;
    this.#onHashChange();
  }

  destroy(): void {
    this.#win.removeEventListener('hashchange', this.#onHashChange);
  }
}
