/**
 * The contract's messages staff read (zod checks with `{ error: () => t(…) }`, said when a value is
 * parsed) and zod's own fallback messages follow the language: Spanish after useLanguage('es'),
 * English again after useLanguage('en').
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewAnimal } from '../../../src/shared/records/animal';
import { ApiKey } from '../../../src/shared/app-api/api';
import { CategoryFile, parseCategoryFile } from '../../../src/shared/records/categories';
import { describeIssues } from '../../../src/shared/basics/errors';
import { useLanguage } from '../../../src/shared/i18n';
import { BaseUrl } from '../../../src/shared/records/profile';
import { useZodLanguage, z } from '../../../src/shared/basics/zod';

const messagesOf = (result: { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }) =>
  describeIssues(result.error?.issues ?? [], { paths: false });

afterEach(async () => {
  await Promise.all([useLanguage('en'), useZodLanguage('en')]);
});

describe('the contract’s messages in the chosen language', () => {
  it('says a check’s own message in Spanish, then English again', async () => {
    await useLanguage('es');
    expect(messagesOf(ApiKey.safeParse(''))).toBe('la clave está vacía');
    expect(messagesOf(NewAnimal.safeParse({ name: ' ', categoryId: '1' }))).toBe('el nombre es obligatorio');
    expect(messagesOf(BaseUrl.safeParse('http://example.org/v1'))).toBe(
      'La dirección debe usar https:// (http:// sin cifrar solo se permite para este equipo)',
    );
    expect(parseCategoryFile('{"kind": "adoption-desk.categories", "version": 1, "categories": [7]}')).toEqual({
      ok: false,
      message: 'No se puede usar el archivo: entrada 1: no es un par {"id", "label"}.',
    });

    await useLanguage('en');
    expect(messagesOf(ApiKey.safeParse(''))).toBe('the key is empty');
    expect(messagesOf(BaseUrl.safeParse('http://example.org/v1'))).toBe(
      'Address must use https:// (plain http:// is allowed only for this computer)',
    );
    expect(parseCategoryFile('{"kind": "adoption-desk.categories", "version": 1, "categories": [7]}')).toEqual({
      ok: false,
      message: 'The file cannot be used: entry 1: it is not an {"id", "label"} pair.',
    });
  });

  it('says zod’s own fallback messages in Spanish once Spanish is chosen, in English again after', async () => {
    const fallback = () => messagesOf(z.string().safeParse(7));
    expect(fallback()).toBe('Invalid input: expected string, received number');
    await Promise.all([useLanguage('es'), useZodLanguage('es')]);
    expect(fallback()).toBe('Entrada inválida: se esperaba texto, recibido número');
    await Promise.all([useLanguage('en'), useZodLanguage('en')]);
    expect(fallback()).toBe('Invalid input: expected string, received number');
  });

  it('keeps the file kind’s message in English byte for byte', () => {
    expect(messagesOf(CategoryFile.safeParse({ kind: 'other', version: 1, categories: [] }))).toBe(
      'this is not a category file of Adoption Desk',
    );
  });
});
