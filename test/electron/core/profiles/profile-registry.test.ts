import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsFs } from '../../../../electron/core/data-folder/atomic-file';
import { ProfileRegistry, type ProfileRegistryOptions } from '../../../../electron/core/profiles/profile-registry';
import type { ProfileList } from '../../../../src/shared/records/profile';

const NOW = Date.UTC(2026, 10, 22, 9, 30, 0);
const SETTINGS = {
  version: 1,
  production: { baseUrl: 'https://api.shelter.example.org/v1' },
  staging: { baseUrl: null },
};

let dataDir: string;
let file: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adoption-profiles-'));
  file = join(dataDir, 'profiles.json');
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const open = (options: Partial<ProfileRegistryOptions> = {}) =>
  ProfileRegistry.open({ dataDir, builtIns: { settings: SETTINGS }, now: () => NOW, ...options });
const ids = (store: ProfileRegistry) => store.list().profiles.map((p) => p.id);
const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

describe('ProfileRegistry built-ins', () => {
  it('lists Production, Staging and Local demo from the resources settings, with no notice', async () => {
    const store = await open();
    expect(store.list()).toEqual({
      profiles: [
        {
          id: 'production',
          name: 'Production',
          baseUrl: 'https://api.shelter.example.org/v1',
          color: 'red',
          kind: 'production',
          builtIn: true,
          addressLocked: true,
        },
        { id: 'staging', name: 'Staging', baseUrl: null, color: 'amber', kind: 'staging', builtIn: true },
        {
          id: 'local',
          name: 'Local demo',
          baseUrl: 'http://127.0.0.1:4010/v1',
          color: 'green',
          kind: 'demo',
          builtIn: true,
        },
      ],
      notice: null,
    });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('reads the packaged resources/profiles.json (addresses not configured)', async () => {
    const store = await open({ builtIns: { file: join(import.meta.dirname, '../../../../resources/profiles.json') } });
    expect(store.get('production')?.baseUrl).toBeNull();
    expect(store.get('staging')?.baseUrl).toBeNull();
    expect(store.list().notice).toBeNull();
  });

  it('takes the Local demo address from the option, normalised', async () => {
    const store = await open({ localDemoUrl: 'http://localhost:5123/v1/' });
    expect(store.get('local')?.baseUrl).toBe('http://localhost:5123/v1');
  });

  it('keeps the default Local demo address and says so when the option is not a valid address', async () => {
    const store = await open({ localDemoUrl: 'http://demo.example.org:4010/v1' });
    expect(store.get('local')?.baseUrl).toBe('http://127.0.0.1:4010/v1');
    expect(store.list().notice).toMatch(/Local demo address .* must use https:\/\//);
  });

  it('explains a broken resources file instead of crashing', async () => {
    const resources = join(dataDir, 'resources.json');
    await writeFile(resources, '{ "version": 1, "production": ');
    const store = await open({ builtIns: { file: resources } });
    expect(store.get('production')?.baseUrl).toBeNull();
    expect(store.list().notice).toMatch(/packaged profile settings .* not valid JSON.*not configured/);
  });

  it('treats an invalid resources address as not configured and says why', async () => {
    const settings = {
      version: 1,
      production: { baseUrl: 'http://api.example.org/v1' },
      staging: { baseUrl: 'https://s.example.org/v2' },
    };
    const store = await open({ builtIns: { settings } });
    expect(store.get('production')?.baseUrl).toBeNull();
    expect(store.get('staging')?.baseUrl).toBeNull();
    expect(store.list().notice).toMatch(/Production address must use https:\/\//);
    expect(store.list().notice).toMatch(/Staging address path must end in \/v1/);
  });

  it('refuses to remove a built-in and keeps its name, but lets staff change its address and colour', async () => {
    const store = await open();
    expect(await store.remove('production')).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const renamed = await store.save({
      id: 'staging',
      name: 'Test',
      baseUrl: 'https://s.example.org/v1',
      color: 'blue',
    });
    expect(renamed).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringMatching(/cannot be changed/) },
    });
    const edited = await store.save({
      id: 'staging',
      name: 'Staging',
      baseUrl: 'https://s.example.org/api/v1/',
      color: 'purple',
    });
    expect(edited).toEqual({
      ok: true,
      data: {
        id: 'staging',
        name: 'Staging',
        baseUrl: 'https://s.example.org/api/v1',
        color: 'purple',
        kind: 'staging',
        builtIn: true,
      },
    });
    const reopened = await open();
    expect(reopened.get('staging')).toMatchObject({ baseUrl: 'https://s.example.org/api/v1', color: 'purple' });
  });

  it('keeps an address the organisation set: read-only, and it wins over an earlier edit', async () => {
    const first = await open({ builtIns: { settings: { ...SETTINGS, production: { baseUrl: null } } } });
    const edited = await first.save({
      id: 'production',
      name: 'Production',
      baseUrl: 'https://mine.example/v1',
      color: 'red',
    });
    expect(edited).toMatchObject({ ok: true, data: { baseUrl: 'https://mine.example/v1' } });
    expect(first.get('production')?.addressLocked).toBeUndefined();
    const store = await open();
    expect(store.get('production')).toMatchObject({
      baseUrl: 'https://api.shelter.example.org/v1',
      addressLocked: true,
    });
    const refused = await store.save({
      id: 'production',
      name: 'Production',
      baseUrl: 'https://x.example/v1',
      color: 'red',
    });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/set by your organisation/) } });
    const recoloured = await store.save({
      id: 'production',
      name: 'Production',
      baseUrl: 'https://api.shelter.example.org/v1',
      color: 'blue',
    });
    expect(recoloured).toMatchObject({ ok: true, data: { color: 'blue', addressLocked: true } });
  });
});

describe('ProfileRegistry saving and removing', () => {
  it('adds profiles with unique ids made from the name, after the built-ins, and persists them', async () => {
    const store = await open();
    const first = await store.save({ name: 'Shelter North', baseUrl: 'https://north.example.org/v1', color: 'blue' });
    const second = await store.save({
      name: 'Shelter  north!',
      baseUrl: 'https://north2.example.org/v1',
      color: 'grey',
    });
    expect(first).toMatchObject({ ok: true, data: { id: 'shelter-north', kind: 'custom', builtIn: false } });
    // Same slug but a different name: the id gets a suffix.
    expect(second).toMatchObject({ ok: true, data: { id: 'shelter-north-2' } });
    const named = await store.save({ name: 'Production', baseUrl: 'https://p.example.org/v1', color: 'blue' });
    expect(named).toMatchObject({ ok: false, error: { message: expect.stringMatching(/already exists/) } });
    expect(ids(store)).toEqual(['production', 'staging', 'local', 'shelter-north', 'shelter-north-2']);
    expect(ids(await open())).toEqual(ids(store));
  });

  it('normalises the address to end in /v1 and allows plain http only for this computer', async () => {
    const store = await open();
    const saved = await store.save({ name: 'A', baseUrl: '  https://a.example.org/api/v1//  ', color: 'blue' });
    expect(saved).toMatchObject({ ok: true, data: { baseUrl: 'https://a.example.org/api/v1' } });
    for (const baseUrl of ['http://127.0.0.1:8080/v1', 'http://localhost/v1', 'http://[::1]:9/v1']) {
      expect((await store.save({ name: `L ${baseUrl}`, baseUrl, color: 'green' })).ok).toBe(true);
    }
    const cases: [string, RegExp][] = [
      ['http://shelter.example.org/v1', /https:\/\//],
      ['https://shelter.example.org/v2', /end in \/v1/],
      ['shelter.example.org/v1', /absolute address/],
      ['https://user:pw@shelter.example.org/v1', /user name or password/],
      ['https://shelter.example.org/v1?x=1', /query/],
    ];
    for (const [baseUrl, reason] of cases) {
      const result = await store.save({ name: 'Bad', baseUrl, color: 'blue' });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', message: expect.stringMatching(reason) },
      });
    }
    const nameless = await store.save({ name: '  ', baseUrl: 'https://x.example.org/v1', color: 'blue' });
    expect(nameless).toMatchObject({ ok: false, error: { message: expect.stringMatching(/name is required/) } });
  });

  it('edits and removes a custom profile; unknown ids are not_found', async () => {
    const store = await open();
    await store.save({ name: 'North', baseUrl: 'https://north.example.org/v1', color: 'blue' });
    const edited = await store.save({
      id: 'north',
      name: 'North (main)',
      baseUrl: 'https://n.example.org/v1',
      color: 'red',
    });
    expect(edited).toMatchObject({ ok: true, data: { id: 'north', name: 'North (main)', color: 'red' } });
    expect(
      await store.save({ id: 'ghost', name: 'G', baseUrl: 'https://g.example.org/v1', color: 'red' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await store.remove('north')).toEqual({ ok: true, data: { removed: true } });
    expect(await store.remove('north')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(ids(await open())).toEqual(['production', 'staging', 'local']);
  });

  it('never gives a removed profile’s id to another profile, across restarts', async () => {
    const store = await open();
    await store.save({ name: 'Field Team', baseUrl: 'https://field.example.org/v1', color: 'blue' });
    expect(await store.remove('field-team')).toMatchObject({ ok: true });
    const again = await store.save({ name: 'Field Team', baseUrl: 'https://other.example.org/v1', color: 'blue' });
    expect(again).toMatchObject({ ok: true, data: { id: 'field-team-2', name: 'Field Team' } });
    expect(await store.remove('field-team-2')).toMatchObject({ ok: true });
    const reopened = await open();
    const third = await reopened.save({ name: 'Field Team', baseUrl: 'https://field.example.org/v1', color: 'blue' });
    expect(third).toMatchObject({ ok: true, data: { id: 'field-team-3' } });
    expect(await readJson(file)).toMatchObject({ version: 1, removedIds: ['field-team', 'field-team-2'] });
  });

  it('reads a v1 file without removed ids, and drops invalid ones', async () => {
    await writeFile(file, JSON.stringify({ version: 1, custom: [], builtIns: {}, removedIds: ['old', 42, 'Bad Id'] }));
    const store = await open();
    expect(store.list().notice).toBeNull();
    expect(await store.save({ name: 'Old', baseUrl: 'https://o.example.org/v1', color: 'blue' })).toMatchObject({
      ok: true,
      data: { id: 'old-2' },
    });
    await writeFile(file, JSON.stringify({ version: 1, custom: [], builtIns: {} }));
    expect(
      await (await open()).save({ name: 'Old', baseUrl: 'https://o.example.org/v1', color: 'blue' }),
    ).toMatchObject({ ok: true, data: { id: 'old' } });
  });

  it('notifies listeners after each change until they unsubscribe', async () => {
    const store = await open();
    const seen: ProfileList[] = [];
    const stop = store.onChange((list) => seen.push(list));
    store.onChange(() => {
      throw new Error('a broken listener');
    });
    await store.save({ name: 'North', baseUrl: 'https://north.example.org/v1', color: 'blue' });
    await store.save({ name: '', baseUrl: 'https://x.example.org/v1', color: 'blue' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.profiles.map((p) => p.id)).toContain('north');
    stop();
    await store.remove('north');
    expect(seen).toHaveLength(1);
  });

  it('writes atomically: no temp files left, valid JSON with a version', async () => {
    const store = await open();
    await Promise.all(
      ['One', 'Two', 'Three', 'Four'].map((name) =>
        store.save({ name, baseUrl: `https://${name}.example.org/v1`, color: 'blue' }),
      ),
    );
    expect(await readdir(dataDir)).toEqual(['profiles.json']);
    expect(await readJson(file)).toMatchObject({
      version: 1,
      custom: [{ id: 'one' }, { id: 'two' }, { id: 'three' }, { id: 'four' }],
    });
  });

  it('keeps the old file and state when the write fails, and removes the temp file', async () => {
    const store = await open();
    await store.save({ name: 'North', baseUrl: 'https://north.example.org/v1', color: 'blue' });
    const before = await readFile(file, 'utf8');
    const failingFs: SettingsFs = {
      ...nodeFs,
      rename: async () => {
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      },
    };
    const broken = await open({ fs: failingFs });
    const result = await broken.save({ name: 'South', baseUrl: 'https://south.example.org/v1', color: 'blue' });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/ENOSPC/) } });
    expect(broken.get('south')).toBeNull();
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readdir(dataDir)).toEqual(['profiles.json']);
  });
});
