/**
 * Two things every screen shares when it shows a message: a time of day as "14:05" in the language
 * shown (Intl, 24-hour: the words around it are translated, the digits are the same in English and
 * Spanish), and a message with markup inside it (a link, a name in <strong><bdi>) kept as one whole
 * sentence: the message is made with `MARK` as that argument, and `aroundMark` gives the text before
 * it and after it.
 */
import { formatTime } from './messages';

const HOUR_MINUTE: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** HH:MM in local time, through Intl in the language shown (reactive in a template). */
export function clockTime(epochMs: number): string {
  return formatTime(epochMs, HOUR_MINUTE);
}

/** Stands for the markup in a message: a private-use character no message or name holds. */
export const MARK = '\uE000';

/** The text of a message before and after `MARK` (all of it before, when the mark is missing). */
export function aroundMark(text: string): [before: string, after: string] {
  const at = text.indexOf(MARK);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + MARK.length)];
}
