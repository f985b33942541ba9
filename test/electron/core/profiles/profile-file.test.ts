// Profile-file robustness: corrupt, truncated, old-version, future-version and hand-edited files.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileRegistry } from '../../../../electron/core/profiles/profile-registry';

const NOW = Date.UTC(2026, 10, 22, 9, 30, 0);
const STAMP = '2026-11-22T09-30-00-000Z';
const SETTINGS = { version: 1, production: { baseUrl: null }, staging: { baseUrl: null } };
const BUILT_INS = ['production', 'staging', 'local'];

let dataDir: string;
let file: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adoption-profile-file-'));
  file = join(dataDir, 'profiles.json');
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const open = () => ProfileRegistry.open({ dataDir, builtIns: { settings: SETTINGS }, now: () => NOW });
const ids = (store: ProfileRegistry) => store.list().profiles.map((p) => p.id);
const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));
const GOOD_V1 = {
  version: 1,
  custom: [{ id: 'north', name: 'North', baseUrl: 'https://north.example.org/v1', color: 'blue' }],
  builtIns: {},
};

describe('a file that cannot be used is set aside and the built-ins restored', () => {
  it.each([
    ['corrupt JSON', '{ "version": 1, custom: [} ', /not valid JSON/],
    ['a truncated file', JSON.stringify(GOOD_V1).slice(0, 40), /not valid JSON/],
    ['an empty file', '', /it is empty/],
    ['a file without a version', JSON.stringify({ custom: [] }), /no valid schema version/],
    ['a file of the wrong shape', JSON.stringify({ version: 1, custom: 'north' }), /not in the expected form/],
  ])('%s', async (_label, text, reason) => {
    await writeFile(file, text);
    const store = await open();
    expect(ids(store)).toEqual(BUILT_INS);
    const notice = store.list().notice ?? '';
    expect(notice).toMatch(reason);
    expect(notice).toContain(`set aside as profiles.json.corrupt-${STAMP}`);
    expect(notice).toMatch(/built-in profiles were restored/);
    expect(await readFile(join(dataDir, `profiles.json.corrupt-${STAMP}`), 'utf8')).toBe(text);
    expect(await readJson(file)).toEqual({ version: 1, custom: [], builtIns: {} });
    // The next start is clean.
    expect((await open()).list().notice).toBeNull();
  });

  it('a file written by a newer version', async () => {
    const text = JSON.stringify({ version: 7, profiles: [] });
    await writeFile(file, text);
    const store = await open();
    expect(ids(store)).toEqual(BUILT_INS);
    expect(store.list().notice).toMatch(/newer version of Adoption Desk \(format 7\).*set aside/);
    expect(await readFile(join(dataDir, `profiles.json.corrupt-${STAMP}`), 'utf8')).toBe(text);
  });

  it('an unreadable file (a folder in its place)', async () => {
    await mkdir(file);
    const store = await open();
    expect(ids(store)).toEqual(BUILT_INS);
    expect(store.list().notice).toMatch(/could not be read \(EISDIR\)/);
    expect((await readdir(dataDir)).sort()).toEqual(['profiles.json', `profiles.json.corrupt-${STAMP}`]);
  });
});

describe('old versions are migrated in order', () => {
  it('v0 (a bare array without ids or colours) becomes v1, keeping a backup', async () => {
    const v0 = [
      { name: 'Shelter North', url: 'https://north.example.org/api/v1/' },
      { name: 'Shelter North', url: 'https://north-b.example.org/v1' },
      { name: 'Production', url: 'https://prod-copy.example.org/v1' },
    ];
    await writeFile(file, JSON.stringify(v0));
    const store = await open();
    expect(store.list().notice).toBeNull();
    expect(store.list().profiles.slice(3)).toEqual([
      {
        id: 'shelter-north',
        name: 'Shelter North',
        baseUrl: 'https://north.example.org/api/v1',
        color: 'blue',
        kind: 'custom',
        builtIn: false,
      },
      {
        id: 'shelter-north-2',
        name: 'Shelter North',
        baseUrl: 'https://north-b.example.org/v1',
        color: 'blue',
        kind: 'custom',
        builtIn: false,
      },
      {
        id: 'production-2',
        name: 'Production',
        baseUrl: 'https://prod-copy.example.org/v1',
        color: 'blue',
        kind: 'custom',
        builtIn: false,
      },
    ]);
    expect(await readJson(file)).toMatchObject({
      version: 1,
      custom: [{ id: 'shelter-north' }, { id: 'shelter-north-2' }, { id: 'production-2' }],
    });
    expect(await readJson(join(dataDir, `profiles.json.v0-${STAMP}`))).toEqual(v0);
  });

  it('a v0 entry that does not validate is dropped and reported', async () => {
    await writeFile(file, JSON.stringify([{ name: 'Plain', url: 'http://plain.example.org/v1' }, 'junk']));
    const store = await open();
    expect(ids(store)).toEqual(BUILT_INS);
    expect(store.list().notice).toMatch(
      /2 entries .* left out: "Plain" \(baseUrl: Address must use https:\/\/.*\); entry 2/,
    );
  });
});

describe('hand-edited files keep what is valid', () => {
  it('drops a bad entry, ignores unknown fields, normalises addresses, and keeps the original', async () => {
    const edited = {
      version: 1,
      comment: 'edited by hand',
      custom: [
        { id: 'north', name: 'North', baseUrl: 'https://north.example.org/v1/', color: 'blue', note: 'extra' },
        { id: 'bad-url', name: 'Bad address', baseUrl: 'https://bad.example.org/api', color: 'red' },
        { id: 'north', name: 'North again', baseUrl: 'https://n2.example.org/v1', color: 'red' },
        { id: 'Upper Case', name: 'Bad id', baseUrl: 'https://ok.example.org/v1', color: 'pink' },
      ],
      builtIns: {
        staging: { baseUrl: 'https://staging.example.org/v1', color: 'grey' },
        production: { color: 'teal' },
        other: {},
      },
    };
    const text = JSON.stringify(edited, null, 2);
    await writeFile(file, text);
    const store = await open();
    expect(ids(store)).toEqual([...BUILT_INS, 'north']);
    expect(store.get('north')?.baseUrl).toBe('https://north.example.org/v1');
    expect(store.get('staging')).toMatchObject({ baseUrl: 'https://staging.example.org/v1', color: 'grey' });
    expect(store.get('production')?.color).toBe('red');
    const notice = store.list().notice ?? '';
    expect(notice).toMatch(/4 entries in the profile settings file could not be used/);
    expect(notice).toMatch(/"Bad address" \(baseUrl: Address path must end in \/v1\)/);
    expect(notice).toMatch(/"North again" \(its id "north" is already used\)/);
    expect(notice).toMatch(/"Bad id" \(id: .*; color: .*\)/);
    expect(notice).toMatch(/built-in profile "production"/);
    expect(notice).toContain(`kept as profiles.json.invalid-${STAMP}`);
    expect(await readFile(join(dataDir, `profiles.json.invalid-${STAMP}`), 'utf8')).toBe(text);
    const rewritten = await readJson(file);
    expect(rewritten).toEqual({
      version: 1,
      custom: [{ id: 'north', name: 'North', baseUrl: 'https://north.example.org/v1', color: 'blue' }],
      builtIns: { staging: { baseUrl: 'https://staging.example.org/v1', color: 'grey' } },
    });
    expect((await open()).list().notice).toBeNull();
  });

  it('a valid current file loads silently and is not rewritten', async () => {
    const text = JSON.stringify(GOOD_V1);
    await writeFile(file, text);
    const store = await open();
    expect(ids(store)).toEqual([...BUILT_INS, 'north']);
    expect(store.list().notice).toBeNull();
    expect(await readdir(dataDir)).toEqual(['profiles.json']);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
