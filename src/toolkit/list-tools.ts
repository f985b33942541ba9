/** What the list screens' Export and Print buttons (ListTools.svelte) read of the profile's session. */
import type { CategoryLabels } from '../shared/records/categories';
import type { AdoptionApi } from '../shared/app-api/client';
import type { OutboxEntry } from '../storage';
import type { PrintStore } from './print.svelte';

export interface ListToolsSession {
  api: AdoptionApi;
  profileId: string;
  categories: { labels: CategoryLabels };
  /** The animals waiting to send: an export says they are not in it (they have no ID yet). */
  outbox: { waiting: readonly OutboxEntry[] };
  print: PrintStore;
}
