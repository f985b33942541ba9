// The OpenAPI document is valid, and the zod contract and the OpenAPI schemas agree on a
// table of valid and invalid payloads.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from '../../../src/shared/basics/zod';
import { Animal, ListQuery, NewAnimal, ServiceError } from '../../../src/shared/records/animal';
import { decodeJson } from '../../../src/shared/records/json-codec';

const file = resolve(import.meta.dirname, '../../../resources/openapi.yaml');

type Schemas = Record<string, object>;
let schemas: Schemas;
let listParams: Array<{ name: string; schema: object }>;

beforeAll(async () => {
  const doc = (await SwaggerParser.validate(parseYaml(readFileSync(file, 'utf8')))) as {
    components: { schemas: Schemas };
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema: object }> }>>;
  };
  schemas = doc.components.schemas;
  listParams = doc.paths['/pets']?.get?.parameters ?? [];
});

function openApiAccepts(schema: object, json: string): boolean {
  const ajv = new Ajv2020({ strict: false });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  return ajv.validate(schema, JSON.parse(json)) as boolean;
}

const zodAccepts = (schema: z.ZodMiniType, json: string) => schema.safeParse(decodeJson(json)).success;

const samples: Array<{ schema: 'NewPet' | 'Pet' | 'Error'; json: string; valid: boolean; why: string }> = [
  { schema: 'NewPet', json: '{"name":"Rex","categoryId":3}', valid: true, why: 'required fields only' },
  { schema: 'NewPet', json: '{"name":"Rex","categoryId":3,"status":"pending"}', valid: true, why: 'with status' },
  { schema: 'NewPet', json: '{"categoryId":3}', valid: false, why: 'missing name' },
  { schema: 'NewPet', json: '{"name":"Rex"}', valid: false, why: 'missing categoryId' },
  { schema: 'NewPet', json: '{"name":"Rex","categoryId":2.5}', valid: false, why: 'non-integer categoryId' },
  { schema: 'NewPet', json: '{"name":"Rex","categoryId":3,"status":"adopted"}', valid: false, why: 'unknown status' },
  { schema: 'Pet', json: '{"id":9007199254740993,"name":"Rex","categoryId":1}', valid: true, why: 'id above 2^53' },
  { schema: 'Pet', json: '{"id":1,"name":"Rex","categoryId":1,"colour":"brown"}', valid: true, why: 'unknown field' },
  { schema: 'Pet', json: '{"name":"Rex","categoryId":1}', valid: false, why: 'missing id' },
  { schema: 'Pet', json: '{"id":1,"name":7,"categoryId":1}', valid: false, why: 'name not a string' },
  { schema: 'Pet', json: '{"id":1,"name":"Rex","categoryId":1,"status":"lost"}', valid: false, why: 'unknown status' },
  { schema: 'Error', json: '{"code":"x","message":"m","status":400}', valid: true, why: 'all fields' },
  { schema: 'Error', json: '{"code":"x","message":"m"}', valid: false, why: 'missing status' },
];

// Keys: the service's schema names (openapi.yaml); values: the app's schemas.
const zodFor = { NewPet: NewAnimal, Pet: Animal, Error: ServiceError } as const;

describe('resources/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Pet', 'NewPet', 'Pets', 'Error', 'PetStatus']));
  });

  it.each(samples)('$schema: $why → valid=$valid in both', ({ schema, json, valid }) => {
    const spec = schemas[schema];
    if (!spec) throw new Error(`schema ${schema} missing`);
    expect(openApiAccepts(spec, json)).toBe(valid);
    expect(zodAccepts(zodFor[schema], json)).toBe(valid);
  });

  it.each([
    { query: { limit: 1 }, valid: true },
    { query: { limit: 100, status: 'sold' }, valid: true },
    { query: { limit: 0 }, valid: false },
    { query: { limit: 101 }, valid: false },
    { query: { limit: 2.5 }, valid: false },
    { query: { status: 'lost' }, valid: false },
  ])('list query $query → valid=$valid in both', ({ query, valid }) => {
    const ajv = new Ajv2020({ strict: false });
    const byName = Object.fromEntries(listParams.map((p) => [p.name, p.schema]));
    const openApi = Object.entries(query).every(([name, value]) => ajv.validate(byName[name] ?? false, value));
    expect(openApi).toBe(valid);
    expect(ListQuery.safeParse(query).success).toBe(valid);
  });

  it('differs on purpose on a quoted int64: the app reads it as the same id (tolerant reader)', () => {
    const json = '{"id":"12","name":"Rex","categoryId":"3"}';
    const spec = schemas.Pet;
    if (!spec) throw new Error('schema Pet missing');
    expect(openApiAccepts(spec, json)).toBe(false);
    expect(Animal.parse(decodeJson(json))).toMatchObject({ id: '12', categoryId: '3' });
  });

  it('documents the limit default, the deprecation and the bearer scheme', () => {
    const text = readFileSync(file, 'utf8');
    expect(ListQuery.parse({}).limit).toBe(20);
    expect(text).toMatch(/default: 20/);
    expect(text).toMatch(/deprecated: true/);
    expect(text).toMatch(/scheme: bearer/);
  });
});
