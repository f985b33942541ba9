/**
 * Where the app's own updates stand, as the core tells the window (electron/core/updates): off
 * (and why), waiting for the next check, checking, downloading, ready to install (and how many
 * animals must be sent first), or the last check failed.
 */
import { z } from '../basics/zod';

export const UpdateStatus = z.discriminatedUnion('state', [
  /** No updates in this app: not the installed desktop app, or switched off by the organisation. */
  z.object({ state: z.literal('off'), reason: z.string() }),
  z.object({ state: z.literal('idle'), lastCheck: z.nullable(z.number()), nextCheck: z.nullable(z.number()) }),
  z.object({ state: z.literal('checking') }),
  z.object({
    state: z.literal('downloading'),
    version: z.string(),
    percent: z.nullable(z.number().check(z.gte(0), z.lte(100))),
  }),
  /** Downloaded: installs when the app is closed, once `waiting` (animals not yet sent) is 0. */
  z.object({ state: z.literal('ready'), version: z.string(), waiting: z.int().check(z.nonnegative()) }),
  z.object({
    state: z.literal('failed'),
    message: z.string(),
    lastCheck: z.nullable(z.number()),
    nextCheck: z.nullable(z.number()),
  }),
]);
export type UpdateStatus = z.infer<typeof UpdateStatus>;
