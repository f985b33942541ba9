/**
 * The parts of the day-at-the-desk soak that run inside the page. They are passed as source
 * text (not functions): tsx's keepNames would wrap named inner functions in a `__name` helper
 * the page lacks, and the timer counter must be an init script that runs before the app.
 */

/** What the page reports of its own storage and timers at a measuring point. */
export interface PageCounts {
  timeouts: number;
  intervals: number;
  /** Each live handle as \`timeout:<ms>\` / \`interval:<ms>\` (what a growing count is made of). */
  delays: string[];
  /** Rows per IndexedDB store of the profile's database. */
  rows: Record<string, number>;
  /** `navigator.storage.estimate().usage` in bytes (the whole origin: IndexedDB and caches). */
  usageBytes: number;
  /** Listeners added minus removed, by `Target:type` (a lead, see TIMER_COUNTER). */
  listenersByKind: Record<string, number>;
}

/**
 * Init script, added after `page.clock.install()` so it wraps the page clock's timers: counts
 * the live setTimeout/setInterval handles (a timeout is live until it fires or is cleared, an
 * interval until it is cleared). `__name` is defined for functions tsx sends to the page.
 */
export const TIMER_COUNTER = `(() => {
  globalThis.__name = (target) => target;
  const live = new Map();
  const setT = window.setTimeout, clearT = window.clearTimeout;
  const setI = window.setInterval, clearI = window.clearInterval;
  window.setTimeout = function (handler, ms, ...args) {
    let id = 0;
    id = setT.call(window, function () {
      live.delete(id);
      if (typeof handler === 'function') handler.apply(this, args);
    }, ms);
    live.set(id, 'timeout:' + ms);
    return id;
  };
  window.clearTimeout = function (id) {
    live.delete(id);
    return clearT.call(window, id);
  };
  window.setInterval = function (handler, ms, ...args) {
    const id = setI.call(window, handler, ms, ...args);
    live.set(id, 'interval:' + ms);
    return id;
  };
  window.clearInterval = function (id) {
    live.delete(id);
    return clearI.call(window, id);
  };
  // Listeners by target and type (added minus removed; \`once\` and signal removals are not
  // seen): not a measure, a lead to what grows when CDP's JSEventListeners does.
  const byKind = new Map();
  const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    const kind = (this && this.constructor && this.constructor.name) + ':' + type;
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    return add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    const kind = (this && this.constructor && this.constructor.name) + ':' + type;
    byKind.set(kind, (byKind.get(kind) ?? 0) - 1);
    return remove.call(this, type, listener, options);
  };
  window.__soakListeners = () => Object.fromEntries([...byKind].filter(([, n]) => n !== 0));
  window.__soakTimers = () => {
    let timeouts = 0, intervals = 0;
    for (const kind of live.values()) kind.startsWith('timeout') ? (timeouts += 1) : (intervals += 1);
    return { timeouts, intervals, delays: [...live.values()] };
  };
})();`;

/** Expression evaluated in the page: the counts above for database `dbName` (raw IndexedDB, read-only). */
export function countsExpression(dbName: string): string {
  return `(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open(${JSON.stringify(dbName)});
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const rows = {};
    try {
      const names = [...db.objectStoreNames];
      const tx = db.transaction(names, 'readonly');
      await Promise.all(names.map((name) => new Promise((resolve, reject) => {
        const request = tx.objectStore(name).count();
        request.onsuccess = () => { rows[name] = request.result; resolve(); };
        request.onerror = () => reject(request.error);
      })));
    } finally {
      db.close();
    }
    const estimate = await navigator.storage.estimate();
    return { ...window.__soakTimers(), rows, usageBytes: estimate.usage ?? 0, listenersByKind: window.__soakListeners() };
  })()`;
}
