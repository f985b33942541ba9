import { flushSync } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGE_STORAGE_KEY, LanguageStore, t } from '../../../src/language';
import { currentLanguage, useLanguage } from '../../../src/shared/i18n';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

function store(options: { system?: string[] | null; browser?: string[]; stored?: Record<string, string> } = {}) {
  const api = fakeAdoptionApi();
  api.handle('systemLanguages', () => ok({ languages: options.system ?? null }));
  api.handle('useLanguage', ({ language }) => ok({ language }));
  const storage = memoryStorage(options.stored);
  const html = { lang: 'en' };
  const language = new LanguageStore(api, storage, () => options.browser ?? ['en-US'], html);
  return { api, storage, html, language };
}

describe('the language shown', () => {
  afterEach(() => useLanguage('en'));

  it("is the desktop system's language by default (Electron's preferred system languages)", async () => {
    const { language, html, api } = store({ system: ['es-MX', 'en-US'], browser: ['en-US'] });
    await language.start();
    expect(language.choice).toBe('system');
    expect(language.language).toBe('es');
    expect(currentLanguage()).toBe('es');
    expect(t('app.navAdd')).toBe('Añadir animal');
    expect(html.lang).toBe('es');
    expect(api.calls.filter((call) => call.channel === 'useLanguage').map((call) => call.input)).toEqual([
      { language: 'es' },
    ]);
  });

  it("is the browser's language in the browser host (no system languages from the core), English when it has none", async () => {
    const spanish = store({ system: null, browser: ['es-AR', 'en'] });
    await spanish.language.start();
    expect(spanish.language.language).toBe('es');
    await useLanguage('en');
    const other = store({ system: null, browser: ['de-DE', 'fr'] });
    await other.language.start();
    expect(other.language.language).toBe('en');
    expect(other.language.system).toBe('en');
  });

  it('follows staff’s choice, remembered for the next start, over the system’s', async () => {
    const first = store({ system: ['en-US'] });
    await first.language.start();
    expect(first.language.language).toBe('en');
    await first.language.choose('es');
    expect(first.storage.items.get(LANGUAGE_STORAGE_KEY)).toBe('es');
    expect(first.language.language).toBe('es');
    expect(first.html.lang).toBe('es');

    const next = store({ system: ['en-US'], stored: { [LANGUAGE_STORAGE_KEY]: 'es' } });
    await next.language.start();
    expect(next.language.choice).toBe('es');
    expect(next.language.language).toBe('es');
    await next.language.choose('system');
    expect(next.language.language).toBe('en');
    expect(next.storage.items.get(LANGUAGE_STORAGE_KEY)).toBe('system');
  });

  it('ignores a remembered value that is no choice (a hand edit), and goes by the system', async () => {
    const { language } = store({ system: ['es'], stored: { [LANGUAGE_STORAGE_KEY]: 'klingon' } });
    await language.start();
    expect(language.choice).toBe('system');
    expect(language.language).toBe('es');
  });

  it('redraws what used t when the language changes', async () => {
    const { language } = store({ system: ['en'] });
    await language.start();
    const seen: string[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        seen.push(t('app.navAnimals'));
      });
    });
    flushSync();
    await language.choose('es');
    flushSync();
    stop();
    expect(seen).toEqual(['Animals', 'Animales']);
  });
});

describe('the core’s words the window keeps', () => {
  afterEach(() => useLanguage('en'));

  it('are read again when another language is shown (the updates’ status)', async () => {
    const { language } = store({ system: ['en'] });
    const shown: string[] = [];
    language.onChange((lang) => shown.push(lang));
    await language.start();
    await language.choose('en');
    await language.choose('es');
    await language.choose('es');
    await language.choose('system');
    expect(shown).toEqual(['es', 'en']);
  });
});
