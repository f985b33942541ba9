/**
 * Compiles the message catalogues (src/shared/i18n/catalogues/<language>/<group>/<area>.json, ICU
 * MessageFormat 1) into TypeScript modules of message functions (src/shared/i18n/generated/),
 * with @messageformat/core. The group folders only sort the areas (`window/`: those the window's
 * build carries whole; `core/`: the core's, the host's, Electron main's, the demo's): a key is
 * `<area>.<key>` whichever folder holds its file. It makes one module per language (the window
 * loads English with the start-up and the others when chosen), English once more with only the
 * messages src/ names (the window's: `windowKeys`), the `Messages` type every language must satisfy
 * (its parameters from the ICU arguments: a plural's or a number's argument is a number), and the
 * pseudo-locale en-XA (docs/i18n.md). Checks first, and refuses with the list of what is wrong: a
 * file or key one language has and another lacks, a file in another folder than English's, an area
 * named twice, a message that does not parse, a plural without `other`, or a translation whose
 * arguments differ from the English ones.
 *
 * `npm run messages` writes the files; test/src/shared/i18n/catalogues.test.ts fails when the committed
 * ones are not what this makes of the catalogues.
 */
import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module.js';
import { parse, type Token } from '@messageformat/parser';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { format, resolveConfig } from 'prettier';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CATALOGUES_DIR = join(ROOT, 'src/shared/i18n/catalogues');
export const GENERATED_DIR = join(ROOT, 'src/shared/i18n/generated');

/** The source language: its catalogue defines the keys and the arguments. */
export const SOURCE_LANGUAGE = 'en';
/** The pseudo-locale (the tag Android and Chromium use for accented English), made from English. */
export const PSEUDO_LANGUAGE = 'en-XA';
/** How much longer a pseudo-locale message is than the English one (issue 23: 40 %). */
export const PSEUDO_GROWTH = 0.4;
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

type Catalogue = Map<string, string>;

/**
 * A language's catalogue files, area → path from the language's folder (`window/list.json`): the
 * file name is the area, at any depth. Throws on an area named twice (two files would feed one key).
 */
export function catalogueFiles(language: string, dir = CATALOGUES_DIR): Map<string, string> {
  const folder = join(dir, language);
  const files = new Map<string, string>();
  const paths = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    // `/` on every system (Windows gives window\list.json), in a stable order
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  for (const path of paths) {
    const area = basename(path, '.json');
    const before = files.get(area);
    if (before) throw new Error(`${language}/${path}: the area "${area}" is ${language}/${before} already`);
    files.set(area, path);
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A catalogue's messages, keyed `<area>.<key>` (the file name is the area). */
export function readCatalogue(language: string, dir = CATALOGUES_DIR): Catalogue {
  const messages: Catalogue = new Map();
  for (const [area, file] of catalogueFiles(language, dir)) {
    const data: unknown = JSON.parse(readFileSync(join(dir, language, file), 'utf8'));
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new Error(`${language}/${file}: not an object of messages`);
    }
    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== 'string') throw new Error(`${language}/${file}: "${key}" is not a string`);
      if (!/^[a-z][A-Za-z0-9]*$/.test(key)) throw new Error(`${language}/${file}: "${key}" is not a camelCase key`);
      messages.set(`${area}.${key}`, value);
    }
  }
  return messages;
}

export function catalogueLanguages(dir = CATALOGUES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a === SOURCE_LANGUAGE ? -1 : b === SOURCE_LANGUAGE ? 1 : a.localeCompare(b)));
}

type ArgKind = 'number' | 'string' | 'text';

/** Every argument of a message, with what it takes: a number (plural, `number`), a choice (select) or any text. */
function argumentsOf(tokens: readonly Token[], into = new Map<string, ArgKind>()): Map<string, ArgKind> {
  const note = (arg: string, kind: ArgKind) => {
    const before = into.get(arg);
    if (!before || before === 'text') into.set(arg, kind);
  };
  for (const token of tokens) {
    if (token.type === 'argument') note(token.arg, 'text');
    else if (token.type === 'function') note(token.arg, token.key === 'number' ? 'number' : 'text');
    else if (token.type === 'plural' || token.type === 'selectordinal' || token.type === 'select') {
      note(token.arg, token.type === 'select' ? 'string' : 'number');
      for (const c of token.cases) argumentsOf(c.tokens, into);
    }
  }
  return into;
}

function parseMessage(language: string, key: string, source: string, problems: string[]): Token[] | null {
  try {
    const tokens = parse(source, { strict: false });
    const missingOther = (list: readonly Token[]): boolean =>
      list.some(
        (token) =>
          (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') &&
          (!token.cases.some((c) => c.key === 'other') || token.cases.some((c) => missingOther(c.tokens))),
      );
    if (missingOther(tokens)) problems.push(`${language} ${key}: a plural or select without an "other" case`);
    return tokens;
  } catch (error) {
    problems.push(`${language} ${key}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i] ?? c,
  ]),
);

/** English text accented and 40 % longer: a filler of '~' after each piece of text, so lines can still wrap at spaces. */
function pseudoText(text: string): string {
  const accented = [...text].map((c) => ACCENTED[c] ?? c).join('');
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  if (letters === 0) return accented;
  const filler = '~'.repeat(Math.ceil(letters * PSEUDO_GROWTH));
  const trailing = /\s+$/.exec(accented)?.[0] ?? '';
  return accented.slice(0, accented.length - trailing.length) + filler + trailing;
}

/** Tokens back to ICU MessageFormat source, the text of content tokens mapped by `text`. */
function toIcu(tokens: readonly Token[], text: (value: string) => string, inPlural = false): string {
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'content': {
          let value = text(token.value)
            .replace(/'/g, "''")
            .replace(/[{}]/g, (c) => `'${c}'`);
          if (inPlural) value = value.replace(/#/g, "'#'");
          return value;
        }
        case 'argument':
          return `{${token.arg}}`;
        case 'function':
          return token.param
            ? `{${token.arg}, ${token.key}, ${toIcu(token.param, (v) => v).trim()}}`
            : `{${token.arg}, ${token.key}}`;
        case 'octothorpe':
          return '#';
        default: {
          const offset = token.pluralOffset ? ` offset:${token.pluralOffset}` : '';
          const plural = token.type !== 'select';
          const cases = token.cases.map((c) => `${c.key} {${toIcu(c.tokens, text, plural || inPlural)}}`).join(' ');
          return `{${token.arg}, ${token.type},${offset} ${cases}}`;
        }
      }
    })
    .join('');
}

export function pseudoMessage(source: string): string {
  return PSEUDO_OPEN + toIcu(parse(source, { strict: false }), pseudoText) + PSEUDO_CLOSE;
}

const TS_TYPE: Record<ArgKind, string> = { number: 'number', string: 'string', text: 'string | number' };

function typesModule(keys: readonly string[], args: ReadonlyMap<string, Map<string, ArgKind>>): string {
  const lines = keys.map((key) => {
    const params = [...(args.get(key) ?? new Map<string, ArgKind>())].sort(([a], [b]) => a.localeCompare(b));
    const input = params.length ? `d: { ${params.map(([name, kind]) => `${name}: ${TS_TYPE[kind]}`).join('; ')} }` : '';
    return `  ${JSON.stringify(key)}: (${input}) => string;`;
  });
  return [
    '// Generated by `npm run messages` (scripts/i18n/compile-messages.ts) from the English catalogue: do not edit.',
    '/** Every message of the app, with its parameters; each language satisfies it. */',
    'export interface Messages {',
    ...lines,
    '}',
    'export type MessageKey = keyof Messages;',
    '',
  ].join('\n');
}

/**
 * A language's messages as a module: `const messages: Messages = {…}; export default messages;`
 * (`Partial<Messages>` for a part of them).
 */
function languageModule(language: string, messages: Catalogue, from: string, type = 'Messages'): string {
  const pluralLocale = language === PSEUDO_LANGUAGE ? SOURCE_LANGUAGE : language;
  const mf = new MessageFormat(pluralLocale, { strict: false, strictPluralKeys: true });
  const compiled = compileModule(mf, Object.fromEntries(messages));
  // The runtime's plural and select answer `unknown` (a case may be any value); here every case is text.
  const typed = ['plural', 'select'].filter((name) => new RegExp(`import \\{[^}]*\\b${name}\\b`).test(compiled));
  const casts = typed.map(
    (name) => `const ${name} = ${name}Any as (...args: Parameters<typeof ${name}Any>) => string;\n`,
  );
  const body = compiled
    .replace(
      /^(import \{)([^}]*)(\} from "@messageformat\/runtime";)/m,
      (_all, open: string, names: string, close: string) =>
        `${open}${names.replace(/\b(plural|select)\b/g, '$1 as $1Any')}${close}`,
    )
    .replace(/^export default \{/m, () => `${casts.join('')}\nconst messages: ${type} = {`);
  return [
    `// Generated by \`npm run messages\` (scripts/i18n/compile-messages.ts) from ${from}: do not edit.`,
    "import type { Messages } from './messages';\n" + body,
    ';',
    'export default messages;',
    '',
  ].join('\n');
}

/**
 * The keys the window's code names (src/: the page, and the contract its preload shares too): a
 * key written whole (`t('list.title')`, a key in a table), or each key of an area of which it makes
 * keys at run time (`` `status.${status}` ``), as the catalogue test counts a message used. The
 * window's build takes English with these alone (generated/en-window.ts, electron.vite.config.ts):
 * the messages of the core and the command lines reach a window as text, in its language.
 */
export function windowKeys(keys: readonly string[], dir = join(ROOT, 'src')): string[] {
  let code = '';
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && /\.(ts|svelte)$/.test(entry.name) && !path.startsWith(GENERATED_DIR)) {
      code += readFileSync(path, 'utf8');
    }
  }
  const madeAreas = new Set([...code.matchAll(/`([a-z][A-Za-z]*)\.\$\{/g)].map(([, area]) => area));
  const named = (key: string) => ["'", '"', '`'].some((quote) => code.includes(`${quote}${key}${quote}`));
  return keys.filter((key) => named(key) || madeAreas.has(key.slice(0, key.indexOf('.'))));
}

/** The files now in GENERATED_DIR, as `compileCatalogues` names them ("en.ts", "en-window.ts"). */
export function generatedFiles(): string[] {
  return readdirSync(GENERATED_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(GENERATED_DIR, join(entry.parentPath, entry.name)))
    .sort();
}

export interface CompileResult {
  /** File name (in GENERATED_DIR) → contents, formatted as prettier formats them. */
  files: Map<string, string>;
  problems: string[];
  counts: { messages: number; languages: string[]; window: number };
}

export async function compileCatalogues(dir = CATALOGUES_DIR): Promise<CompileResult> {
  const problems: string[] = [];
  const languages = catalogueLanguages(dir);
  const catalogues = new Map(languages.map((language) => [language, readCatalogue(language, dir)]));
  const source = catalogues.get(SOURCE_LANGUAGE);
  if (!source) throw new Error(`there is no ${SOURCE_LANGUAGE} catalogue in ${dir}`);
  const keys = [...source.keys()].sort();
  const args = new Map<string, Map<string, ArgKind>>();
  for (const key of keys) {
    const tokens = parseMessage(SOURCE_LANGUAGE, key, source.get(key) ?? '', problems);
    if (tokens) args.set(key, argumentsOf(tokens));
  }
  const sourceFiles = catalogueFiles(SOURCE_LANGUAGE, dir);
  for (const [language, catalogue] of catalogues) {
    if (language === SOURCE_LANGUAGE) continue;
    // The same files in the same folders as English: a translator finds each area where English has it.
    const files = catalogueFiles(language, dir);
    for (const [area, path] of sourceFiles) {
      const there = files.get(area);
      if (!there) problems.push(`${language}/${path}: missing (English has it)`);
      else if (there !== path) problems.push(`${language}/${there}: English has it at ${SOURCE_LANGUAGE}/${path}`);
    }
    for (const [area, path] of files) if (!sourceFiles.has(area)) problems.push(`${language}/${path}: not in English`);
    for (const key of keys) if (!catalogue.has(key)) problems.push(`${language} ${key}: missing (English has it)`);
    for (const key of catalogue.keys()) if (!source.has(key)) problems.push(`${language} ${key}: not in English`);
    for (const [key, text] of catalogue) {
      const tokens = parseMessage(language, key, text, problems);
      const expected = args.get(key);
      if (!tokens || !expected) continue;
      const names = (map: Map<string, ArgKind>) => [...map.keys()].sort().join(', ');
      const found = argumentsOf(tokens);
      if (names(found) !== names(expected)) {
        problems.push(`${language} ${key}: arguments {${names(found)}}, English has {${names(expected)}}`);
      }
    }
  }
  const files = new Map<string, string>();
  const inWindow = windowKeys(keys);
  if (problems.length === 0) {
    const pseudo: Catalogue = new Map(keys.map((key) => [key, pseudoMessage(source.get(key) ?? '')]));
    files.set('messages.ts', typesModule(keys, args));
    for (const [language, catalogue] of catalogues) {
      const sorted: Catalogue = new Map(keys.map((key) => [key, catalogue.get(key) ?? '']));
      files.set(`${language}.ts`, languageModule(language, sorted, `catalogues/${language}`));
    }
    const english: Catalogue = new Map(inWindow.map((key) => [key, source.get(key) ?? '']));
    const from = `catalogues/${SOURCE_LANGUAGE}, the messages src/ names`;
    files.set(`${SOURCE_LANGUAGE}-window.ts`, languageModule(SOURCE_LANGUAGE, english, from, 'Partial<Messages>'));
    files.set(
      `${PSEUDO_LANGUAGE}.ts`,
      languageModule(PSEUDO_LANGUAGE, pseudo, 'the English catalogue, pseudo-localised'),
    );
    const config = (await resolveConfig(join(GENERATED_DIR, 'en.ts'))) ?? {};
    for (const [name, text] of files) {
      files.set(name, await format(text, { ...config, filepath: join(GENERATED_DIR, name) }));
    }
  }
  return { files, problems, counts: { messages: keys.length, languages, window: inWindow.length } };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const result = await compileCatalogues();
  if (result.problems.length) {
    console.error(`The catalogues were not compiled:\n  ${result.problems.join('\n  ')}`);
    process.exit(1);
  }
  // What an earlier run made that this one does not (an area removed) goes.
  for (const name of generatedFiles()) if (!result.files.has(name)) rmSync(join(GENERATED_DIR, name));
  for (const [name, text] of result.files) writeFileSync(join(GENERATED_DIR, name), text);
  console.log(
    `${result.counts.messages} messages in ${result.counts.languages.join(', ')} (and ${PSEUDO_LANGUAGE}), ${result.counts.window} of them in the window → ${GENERATED_DIR}`,
  );
}
