import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  catalogueFiles,
  CATALOGUES_DIR,
  compileCatalogues,
  GENERATED_DIR,
  PSEUDO_CLOSE,
  PSEUDO_OPEN,
  pseudoMessage,
  readCatalogue,
  windowKeys,
} from '../../../../scripts/i18n/compile-messages';
import { currentLanguage, formatNumber, matchLanguage, t, useLanguage } from '../../../../src/shared/i18n';

describe('the message catalogues', () => {
  it('compile without a problem, and the committed modules are what they compile to (npm run messages)', async () => {
    const result = await compileCatalogues();
    expect(result.problems).toEqual([]);
    expect(result.counts.languages).toEqual(['en', 'es']);
    for (const [name, text] of result.files) {
      expect(readFileSync(join(GENERATED_DIR, name), 'utf8'), `${name} is stale: run npm run messages`).toBe(text);
    }
    // compiling formats with prettier: seconds on a busy or a Windows runner
  }, 30_000);

  it("are read whole: every message of every file in a language's folders", () => {
    for (const language of ['en', 'es']) {
      const folder = join(CATALOGUES_DIR, language);
      const written = readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => Object.keys(JSON.parse(readFileSync(join(entry.parentPath, entry.name), 'utf8'))).length)
        .reduce((sum, count) => sum + count, 0);
      expect(written, language).toBeGreaterThan(0);
      expect(readCatalogue(language).size, language).toBe(written);
    }
  });

  it('have every English message in Spanish, translated unless it is a name', () => {
    const en = readCatalogue('en');
    const es = readCatalogue('es');
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
    const same = [...en].filter(([key, text]) => es.get(key) === text && /\p{L}{3}/u.test(text)).map(([key]) => key);
    // Names and words Spanish writes the same way: the product's name, "Local demo", units.
    expect(same.filter((key) => !SAME_IN_SPANISH.has(key))).toEqual([]);
  });

  it("sort the areas by who shows them: window/ those the window's build carries whole, core/ the others", () => {
    const files = catalogueFiles('en');
    const keys = [...readCatalogue('en').keys()];
    const inWindow = new Set(windowKeys(keys));
    const whole = (area: string) => keys.filter((key) => key.startsWith(`${area}.`)).every((key) => inWindow.has(key));
    const misplaced = [...files].filter(([area, path]) => path.startsWith('window/') !== whole(area));
    expect(misplaced.map(([, path]) => path)).toEqual([]);
    expect(new Set([...files.values()].map((path) => path.split('/')[0]))).toEqual(new Set(['core', 'window']));
    // Spanish in the same folders (npm run messages refuses otherwise)
    expect(catalogueFiles('es')).toEqual(files);
  });
});

/** The text of every product source file (the generated catalogues excepted). */
function productSources(): string {
  const root = join(import.meta.dirname, '../../../..');
  const texts: string[] = [];
  for (const top of ['src', 'electron', 'scripts']) {
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name);
      // either separator: Windows gives src\shared\i18n\generated\…
      if (!entry.isFile() || !/\.(ts|svelte|mjs)$/.test(entry.name) || /[\\/]i18n[\\/]generated[\\/]/.test(path))
        continue;
      texts.push(readFileSync(path, 'utf8'));
    }
  }
  return texts.join('\n');
}

describe('every message', () => {
  it('is used by the code: by its key, or through a key made from its area (`status.${status}`)', () => {
    const code = productSources();
    const dynamicAreas = new Set([...code.matchAll(/`([a-z][A-Za-z]*)\.\$\{/g)].map((m) => m[1]));
    const unused = [...readCatalogue('en').keys()].filter(
      (key) => !code.includes(`'${key}'`) && !code.includes(`"${key}"`) && !dynamicAreas.has(key.split('.')[0] ?? ''),
    );
    expect(unused).toEqual([]);
  });
});

/** Messages whose Spanish is the English text (proper names, words both languages write alike). */
const SAME_IN_SPANISH = new Set(['app.productName', 'list.addShortcut']);

describe('a broken catalogue', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function catalogues(en: Record<string, string>, es: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'catalogues-'));
    for (const [language, messages] of [
      ['en', en],
      ['es', es],
    ] as const) {
      mkdirSync(join(dir, language));
      writeFileSync(join(dir, language, 'area.json'), JSON.stringify(messages));
    }
    return dir;
  }

  it('is refused with every problem named', async () => {
    const result = await compileCatalogues(
      catalogues(
        { one: 'One {name}', two: '{count, plural, one {# animal} other {# animals}}', three: 'Three' },
        { one: 'Uno {nombre}', two: '{count, plural, one {# animal}}', four: 'Cuatro', three: 'Tres {a b}' },
      ),
    );
    expect(result.files.size).toBe(0);
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^es area\.one: arguments \{nombre\}, English has \{name\}/),
        expect.stringMatching(/^es area\.two: a plural or select without an "other" case/),
        expect.stringMatching(/^es area\.four: not in English/),
        expect.stringMatching(/^es area\.three: /),
      ]),
    );
  });
});

describe('catalogue files in folders', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Catalogues of the given files, path (`en/window/list.json`) → messages. */
  function files(contents: Record<string, Record<string, string>>): string {
    dir = mkdtempSync(join(tmpdir(), 'catalogues-'));
    for (const [path, messages] of Object.entries(contents)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), JSON.stringify(messages));
    }
    return dir;
  }

  it('key a message by its file name, whichever folder holds it', async () => {
    const result = await compileCatalogues(
      files({
        'en/window/list.json': { title: 'Animals' },
        'en/core/service.json': { down: 'The service is down' },
        'es/window/list.json': { title: 'Animales' },
        'es/core/service.json': { down: 'El servicio no responde' },
      }),
    );
    expect(result.problems).toEqual([]);
    expect(readCatalogue('es', dir)).toEqual(
      new Map([
        ['list.title', 'Animales'],
        ['service.down', 'El servicio no responde'],
      ]),
    );
    expect(catalogueFiles('en', dir)).toEqual(
      new Map([
        ['list', 'window/list.json'],
        ['service', 'core/service.json'],
      ]),
    );
  });

  it('are refused where a translation sits in another folder than English, or lacks a file English has', async () => {
    const result = await compileCatalogues(
      files({
        'en/window/list.json': { title: 'Animals' },
        'en/core/service.json': { down: 'The service is down' },
        'es/core/list.json': { title: 'Animales' },
        'es/window/extra.json': { more: 'Más' },
      }),
    );
    expect(result.files.size).toBe(0);
    expect(result.problems).toEqual(
      expect.arrayContaining([
        'es/core/list.json: English has it at en/window/list.json',
        'es/core/service.json: missing (English has it)',
        'es/window/extra.json: not in English',
      ]),
    );
  });

  it('are refused where two files name one area', () => {
    files({ 'en/window/list.json': { title: 'Animals' }, 'en/core/list.json': { other: 'Other' } });
    expect(() => readCatalogue('en', dir)).toThrow('en/window/list.json: the area "list" is en/core/list.json already');
  });
});

describe('the pseudo-locale', () => {
  it('accents the text, marks the message and makes it at least 40 % longer, arguments and plurals kept', async () => {
    expect(pseudoMessage('Add animal')).toBe(`${PSEUDO_OPEN}Åđđ åñîɱåļ~~~~${PSEUDO_CLOSE}`);
    const plural = pseudoMessage("{count, plural, one {# animal isn't sent} other {# animals aren't sent}} to {name}");
    expect(plural).toContain('{count, plural, one {# åñîɱåļ îšñ');
    expect(plural).toContain('{name}');
    const text = 'Could not load the profiles: ';
    expect(pseudoMessage(text).length).toBeGreaterThanOrEqual(
      Math.ceil(text.replace(/[^A-Za-z]/g, '').length * 0.4) + text.length,
    );
  });
});

describe('languages', () => {
  it('match the system language by its primary subtag, English otherwise', () => {
    expect(matchLanguage(['es-MX', 'en-US'])).toBe('es');
    expect(matchLanguage(['fr-CA', 'es_419'])).toBe('es');
    expect(matchLanguage(['de', 'fr'])).toBe('en');
    expect(matchLanguage([])).toBe('en');
  });

  it('load Spanish when chosen: its messages, and its numbers', async () => {
    expect(currentLanguage()).toBe('en');
    expect(t('app.navAdd')).toBe('Add animal');
    expect(formatNumber(12345.5)).toBe('12,345.5');
    await useLanguage('es');
    try {
      expect(t('app.navAdd')).toBe('Añadir animal');
      expect(t('app.profilesFailed', { reason: 'x' })).toBe('No se pudieron cargar los perfiles: x');
      expect(formatNumber(12345.5)).toBe('12.345,5');
    } finally {
      await useLanguage('en');
    }
  });
});
