/**
 * The Electron transport of the app's API: one `ipcMain.handle` per contract channel, each
 * refusing senders that are not the app's own window and frame, and the core's events
 * pushed to the window with `webContents.send`.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { CHANNELS, type EventName, ipcName } from '../../src/shared/app-api/api';
import { err } from '../../src/shared/app-api/result';
import type { Router } from '../core';

/** The part of `ipcMain` used here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export const UNKNOWN_SENDER = err('invalid_request', 'Unknown sender');

/** The sender check of every channel: a check that throws counts as a refusal. */
export function senderTrusted(isTrustedSender: SenderCheck, event: IpcMainInvokeEvent): boolean {
  try {
    return isTrustedSender(event);
  } catch {
    return false;
  }
}

/** Registers every channel; returns the function that removes them again. */
export function registerIpc(ipcMain: IpcMainLike, router: Router, isTrustedSender: SenderCheck): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(ipcName(channel), async (event, input) => {
      if (!senderTrusted(isTrustedSender, event)) return UNKNOWN_SENDER;
      return router.handle(channel, input);
    });
  }
  return () => CHANNELS.forEach((channel) => ipcMain.removeHandler(ipcName(channel)));
}

export interface WebContentsLike {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

/** Forwards every core event to the window (while it exists); returns the unsubscribe. */
export function forwardEvents(
  events: { subscribe(listener: (event: EventName, payload: unknown) => void): () => void },
  target: () => WebContentsLike | null,
): () => void {
  return events.subscribe((event, payload) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(ipcName(event), payload);
  });
}

interface WindowLike {
  isDestroyed(): boolean;
  webContents: { mainFrame: unknown; id: number };
}

/**
 * The sender check: the call must come from the main window's own webContents, from its
 * main frame (not an iframe), showing the app's own page.
 */
export function trustedSenderCheck(
  getWindow: () => WindowLike | null,
  isAppUrl: (url: string) => boolean,
): SenderCheck {
  return (event) => {
    const win = getWindow();
    if (!win || win.isDestroyed()) return false;
    if (event.sender !== (win.webContents as unknown)) return false;
    const frame = event.senderFrame;
    if (!frame || frame !== win.webContents.mainFrame) return false;
    return isAppUrl(frame.url);
  };
}
