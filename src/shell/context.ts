/**
 * What every screen may read of the app, through Svelte context: one store per app-wide fact
 * (the clock, the screen shown, whether each service is reachable, the profiles, what is known
 * of each key). The app's root sets it (src/app/App.svelte, with AppStores, which has more);
 * features read it here, so none of them imports the root that composes them.
 */
import { getContext, setContext } from 'svelte';
import type { LanguageStore } from '../language';
import type { ClockStore } from './clock.svelte';
import type { ConnectivityStore } from './connectivity.svelte';
import type { KeysStore } from './keys.svelte';
import type { NavigationStore } from './navigation.svelte';
import type { ProfileListStore } from './profile-list.svelte';
import type { UpdatesStore } from './updates.svelte';

export interface AppContext {
  readonly clock: ClockStore;
  /** The language shown and staff's choice of it. */
  readonly language: LanguageStore;
  readonly navigation: NavigationStore;
  readonly connectivity: ConnectivityStore;
  readonly profiles: ProfileListStore;
  readonly keys: KeysStore;
  readonly updates: UpdatesStore;
}

const KEY = Symbol('adoption-desk.app');

export function setAppContext<T extends AppContext>(app: T): T {
  return setContext(KEY, app);
}

export function getAppContext(): AppContext {
  const app = getContext<AppContext | undefined>(KEY);
  if (!app) throw new Error('The app context is missing: render inside <App> or pass a context in tests.');
  return app;
}
