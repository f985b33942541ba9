/**
 * Which permission the app's window gets: writing to the clipboard ("Copy diagnostics"), for
 * the app's own page in the main window's main frame, and nothing else, ever. Chromium asks
 * for `clipboard-sanitized-write` on `navigator.clipboard.writeText` (docs/api/session.md lists
 * it for both handlers); most web APIs check first, then request, so both handlers use this.
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

export function permissionPolicy(
  isAppContents: (webContents: unknown) => boolean,
  isAppUrl: (url: string) => boolean,
): (ask: PermissionAsk) => boolean {
  return (ask) =>
    ask.permission === CLIPBOARD_WRITE &&
    ask.isMainFrame === true &&
    ask.webContents !== null &&
    isAppContents(ask.webContents) &&
    ask.requestingUrl !== undefined &&
    isAppUrl(ask.requestingUrl);
}
