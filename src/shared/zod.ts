/**
 * The one zod of the contract and the renderer: `zod/mini`, whose functions are separate exports
 * a bundler can leave out when unused (classic `zod` brings its whole API, JSON Schema included,
 * into every bundle: 26 KiB of the window's start-up, gzipped; docs/performance.md "Start-up
 * weight"). Its schemas are the same core types classic zod builds on, so the main process (which
 * may use classic `zod` for its own files) composes and parses them alike.
 *
 * zod/mini has no messages of its own ("Invalid input" for every issue) until a locale is set:
 * English here, as classic zod sets it, so a message staff read is the same in every process. Every
 * module of src/ imports `z` from here (eslint `no-restricted-imports`), so the locale is set
 * before any schema parses.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';

z.config(en());

export { z };
