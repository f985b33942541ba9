/**
 * Which permissions the app's window gets, for the app's own page in the main window's main
 * frame, and nothing else, ever:
 * - writing to the clipboard ("Copy diagnostics"): Chromium asks for `clipboard-sanitized-write`
 *   on `navigator.clipboard.writeText` (docs/api/session.md lists it for both handlers);
 * - keeping its storage: `navigator.storage.persist()` asks for `persistent-storage` (Electron's
 *   name for blink::PermissionType::PERSISTENT_STORAGE, shell/common/gin_converters/
 *   content_converter.cc:191-192), and Diagnostics shows the answer. Denied, it said the outbox
 *   "may be cleared", which is not true in Electron: its storage policy exempts every origin from
 *   eviction (shell/browser/special_storage_policy.cc: IsStorageUnlimited and IsStorageProtected
 *   return true), so the grant makes the page say what holds.
 * Most web APIs check first, then request, so both handlers use this.
 */
export interface PermissionAsk {
  /** The asking webContents; the check handler passes null for cross-origin subframes. */
  webContents: unknown;
  permission: string;
  /** `details.requestingUrl`: the last URL the asking frame loaded (absent for some checks). */
  requestingUrl: string | undefined;
  /** `details.isMainFrame`. */
  isMainFrame: boolean | undefined;
}

export const CLIPBOARD_WRITE = 'clipboard-sanitized-write';
export const PERSISTENT_STORAGE = 'persistent-storage';
const GRANTED: ReadonlySet<string> = new Set([CLIPBOARD_WRITE, PERSISTENT_STORAGE]);

export function permissionPolicy(
  isAppContents: (webContents: unknown) => boolean,
  isAppUrl: (url: string) => boolean,
): (ask: PermissionAsk) => boolean {
  return (ask) =>
    GRANTED.has(ask.permission) &&
    ask.isMainFrame === true &&
    ask.webContents !== null &&
    isAppContents(ask.webContents) &&
    ask.requestingUrl !== undefined &&
    isAppUrl(ask.requestingUrl);
}
