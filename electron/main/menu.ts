/**
 * The application menu of the packaged app. Electron's default menu offers Reload, Force
 * Reload and Toggle Developer Tools (docs/api/menu.md: "The default menu will be created
 * automatically if the app does not set one"); staff get none of them.
 * - macOS: the app menu (About, Hide, Quit), Edit (without it Cmd+C / Cmd+V do nothing in
 *   text fields on macOS) and Window. Roles from docs/api/menu-item.md.
 * - Windows and Linux: no menu at all (`Menu.setApplicationMenu(null)` also removes the menu
 *   bar there); Ctrl+C / Ctrl+V in text fields are Chromium's own and keep working.
 * A development run (not packaged) keeps Electron's default menu, DevTools included.
 */
export interface MenuItemTemplate {
  role: 'appMenu' | 'editMenu' | 'windowMenu';
}

export function productionMenuTemplate(platform: NodeJS.Platform): MenuItemTemplate[] | null {
  if (platform === 'darwin') return [{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }];
  return null;
}
