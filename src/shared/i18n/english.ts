/**
 * The English messages loaded so far: each area of the catalogue adds its own when its module is
 * evaluated (generated/en/<area>.ts). In the core, the tests and the tools all of them are
 * (generated/en.ts); in the window each area comes with the code that uses it, so a screen loaded
 * on first use brings its own words (electron.vite.config.ts, `englishAreas`).
 */
import type { Messages } from './generated/messages';

export const english: Partial<Messages> = {};

export function addEnglish(messages: Partial<Messages>): void {
  Object.assign(english, messages);
}
