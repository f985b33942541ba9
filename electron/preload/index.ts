/**
 * The preload: exposes `window.adoption`, named methods built from the contract, and
 * nothing raw (no ipcRenderer, no generic invoke).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { ipcName, type Channel, type EventName } from '../../src/shared/app-api/api';
import { buildAdoptionApi } from '../../src/shared/app-api/client';

const adoption = buildAdoptionApi(
  {
    invoke: (channel: Channel, input: unknown) => ipcRenderer.invoke(ipcName(channel), input),
    subscribe: (event: EventName, listener: (payload: unknown) => void) => {
      const handler = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(ipcName(event), handler);
      return () => void ipcRenderer.removeListener(ipcName(event), handler);
    },
  },
  'electron',
);

contextBridge.exposeInMainWorld('adoption', adoption);
