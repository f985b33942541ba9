/**
 * The parts of the renderer bench that run inside the page (passed to Playwright's
 * `addInitScript` / `evaluate`, so each function is self-contained: no named inner
 * functions either, since tsx's keepNames would call a `__name` helper the page lacks).
 */

export interface PageProbe {
  /** performance.now() when the first animal row was in the DOM (relative to navigation start). */
  firstRowAt: number | null;
  /** performance.now() once the frame after it has been painted. */
  firstRowPaintedAt: number | null;
  longTasks: { start: number; duration: number }[];
}

declare global {
  interface Window {
    __benchProbe?: PageProbe;
  }
}

/** Init script: records the first animal row and every long task from navigation start. */
export function installProbe(): void {
  const probe: PageProbe = { firstRowAt: null, firstRowPaintedAt: null, longTasks: [] };
  window.__benchProbe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const observer = new MutationObserver(() => {
    if (probe.firstRowAt !== null || !document.querySelector('[data-testid="animal-row"]')) return;
    probe.firstRowAt = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (probe.firstRowPaintedAt = performance.now());
      channel.port2.postMessage(0);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

export interface FillArgs {
  dbName: string;
  rows: { id: string; animal: Record<string, string>; confirmedAt: number; firstSeenAt: number }[];
}

/** Writes the rows into the profile's `animals` store with raw IndexedDB (Dexie's schema: key path `id`). */
export async function fillAnimals({ dbName, rows }: FillArgs): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
  });
  try {
    if (!db.objectStoreNames.contains('animals')) throw new Error(`${dbName} has no animals store yet`);
    const tx = db.transaction('animals', 'readwrite');
    const store = tx.objectStore('animals');
    store.clear();
    for (const row of rows) store.put(row);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('transaction failed'));
    });
    return rows.length;
  } finally {
    db.close();
  }
}

export interface ChangeArgs {
  selector: string;
  value: string;
  event: 'input' | 'change';
}

export interface ChangeTiming {
  /** Dispatch until the task and Svelte's microtask flush are done (DOM updated). */
  scriptMs: number;
  /** Start of the next frame until it has been painted (style, layout, virtua, paint). */
  renderMs: number;
  /** Dispatch until painted, including the wait for the frame boundary. */
  toPaintMs: number;
  /** `data-count` of the rows after the change. */
  count: string | null;
}

/** Sets a control's value as the user would, and times the update up to the painted frame. */
export async function timeChange({ selector, value, event }: ChangeArgs): Promise<ChangeTiming> {
  const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(selector);
  if (!control) throw new Error(`no control ${selector}`);
  const started = performance.now();
  control.value = value;
  control.dispatchEvent(new Event(event, { bubbles: true }));
  const updated = await new Promise<number>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now());
    channel.port2.postMessage(0);
  });
  const frameStart = await new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const painted = await new Promise<number>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now());
    channel.port2.postMessage(0);
  });
  return {
    scriptMs: updated - started,
    renderMs: painted - frameStart,
    toPaintMs: painted - started,
    count: document.querySelector('[data-testid="animal-rows"]')?.getAttribute('data-count') ?? null,
  };
}
