/**
 * The language channels: the languages the system prefers (`systemLanguages`), and the language
 * the window shows (`useLanguage`), which the core's own messages (its errors) follow from then on.
 * Until a window says which it shows, the core speaks the system's.
 */
import type { Handlers } from '../../src/shared/app-api/api';
import { matchLanguage, useLanguage } from '../../src/shared/i18n';
import { ok } from '../../src/shared/app-api/result';

export async function languageChannels(
  systemLanguages: (() => readonly string[]) | undefined,
): Promise<Handlers<'systemLanguages' | 'useLanguage'>> {
  if (systemLanguages) await useLanguage(matchLanguage(systemLanguages()));
  return {
    systemLanguages: async () => ok({ languages: systemLanguages ? [...systemLanguages()] : null }),
    useLanguage: async ({ language }) => {
      await useLanguage(language);
      return ok({ language });
    },
  };
}
