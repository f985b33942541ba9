/**
 * The browser host's core given an updater (the installed app's part, played by a port that records
 * what it is told): updates are on only with the organisation's update address (a resources folder
 * whose profiles.json has one) and a copy that can check who made an update (update-trust.ts).
 */
import { resolve } from 'node:path';
import type { UpdateTrust } from '../../../electron/core/updates';

export const UPDATES_RESOURCES = resolve(import.meta.dirname, '../../support/updates-resources');
export const TRUSTED: UpdateTrust = { trusted: true, publisherName: null };
