/**
 * The simulation's process, set up before any of the app's code loads (the `sim` vitest
 * project's setup file): IndexedDB is the simulated computers' (world/indexeddb.ts), and so is
 * BroadcastChannel (world/browser.ts); paths under /sim-disk/ are the simulated disks.
 */
import { SimBroadcastChannel } from './world/browser';
import { installMounts } from './world/fs-mount';
import { installIndexedDb } from './world/indexeddb';

installIndexedDb();
(globalThis as unknown as { BroadcastChannel: unknown }).BroadcastChannel = SimBroadcastChannel;
installMounts();
// The stores' one default read of the global `window` (PrintStore's `print`); every other window
// field the app uses comes through createApp's `win` (world/browser.ts `simWindow`).
(globalThis as unknown as { window: unknown }).window = { print: () => {} };
