/**
 * The permission decision of the app's window (electron/main/permissions.ts), the same function
 * both of the session's handlers answer with (window.ts guardSession).
 */
import { describe, expect, it } from 'vitest';
import { permissionPolicy, type PermissionAsk } from '../../../electron/main/permissions';

const PAGE = 'app://adoption-desk/index.html';
const appContents = { id: 1 };
const allow = permissionPolicy(
  (contents) => contents === appContents,
  (url) => url.split(/[?#]/)[0] === PAGE,
);
const ask = (permission: string, over: Partial<PermissionAsk> = {}): boolean =>
  allow({ webContents: appContents, permission, requestingUrl: `${PAGE}#/diagnostics`, isMainFrame: true, ...over });

describe('what the app’s window may do', () => {
  it('keeps its storage: persistent-storage, for the app page in the main frame of its window', () => {
    // Electron's name for blink::PermissionType::PERSISTENT_STORAGE
    // (shell/common/gin_converters/content_converter.cc:191-192).
    expect(ask('persistent-storage')).toBe(true);
  });

  it('writes to the clipboard (Copy diagnostics), on the same terms', () => {
    expect(ask('clipboard-sanitized-write')).toBe(true);
  });

  it('grants them to nothing else: another frame, page or window, or no requesting URL', () => {
    for (const permission of ['persistent-storage', 'clipboard-sanitized-write']) {
      expect(ask(permission, { isMainFrame: false }), permission).toBe(false);
      expect(ask(permission, { isMainFrame: undefined }), permission).toBe(false);
      expect(ask(permission, { requestingUrl: 'https://evil.example/' }), permission).toBe(false);
      expect(ask(permission, { requestingUrl: undefined }), permission).toBe(false);
      expect(ask(permission, { webContents: { id: 2 } }), permission).toBe(false);
      expect(ask(permission, { webContents: null }), permission).toBe(false);
    }
  });

  it('refuses every other permission, even to the app page', () => {
    for (const permission of [
      'clipboard-read',
      'media',
      'notifications',
      'geolocation',
      'fileSystem',
      'openExternal',
      'storage-access',
      'top-level-storage-access',
      'background-sync',
    ])
      expect(ask(permission), permission).toBe(false);
  });
});
