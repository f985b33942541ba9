/**
 * A seeded generator of random and malformed API payloads (issue 7.5): wrong types for every
 * field of each channel's input, out-of-range but valid-looking values, control characters,
 * huge numbers, deep nesting, prototype-pollution keys, plus some valid payloads and unknown
 * channel names. `jsonOnly` keeps to what JSON can carry (for the browser host's API).
 */
import { CHANNELS, type Channel } from '../../../src/shared/app-api/api';
import { mulberry32, type Random } from '../../service/prng';

export const UNKNOWN_CHANNELS = [
  '',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'listpets',
  'adoption:listPets',
  'listPets ',
  '../listPets',
  'x'.repeat(300),
  'ordersRaw\u0000',
];

export interface FuzzCall {
  channel: string;
  input: unknown;
  /** The API keys this call carries (setKey), which no answer may ever quote. */
  keys: string[];
}

const STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u001b[31mred',
  '\ud800',
  'é\u0301',
  '🐕'.repeat(50),
  '<script>alert(1)</script>',
  '${7*7}',
  "'; DROP TABLE pets; --",
  '9223372036854775808',
  '-0',
  '01',
  '1e3',
  ' 1',
  'NaN',
  'local',
  'available',
  'http://evil.example/v1',
  'javascript:alert(1)',
  'file:///etc/passwd',
];
const NUMBERS = [0, -1, 1.5, 101, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, -0];
const NON_JSON = [undefined, NaN, Infinity, -Infinity, 10n ** 30n, new Date(0), new Map([[1, 2]])];

export function createFuzzer(seed: number, jsonOnly = false) {
  const random: Random = mulberry32(seed);
  const int = (max: number) => Math.floor(random() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  let keyCounter = 0;

  function randomString(): string {
    switch (int(4)) {
      case 0:
        return pick(STRINGS);
      case 1:
        return String.fromCharCode(...Array.from({ length: int(40) }, () => int(0x3000)));
      case 2:
        return 'a'.repeat(int(3) === 0 ? 5000 : 201);
      default:
        return int(1e9).toString(36);
    }
  }

  function pollutingObject(): unknown {
    const text = pick([
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"__proto__":[],"toString":"x","valueOf":1}',
    ]);
    return JSON.parse(text) as unknown;
  }

  function randomValue(depth = 0): unknown {
    const kind = int(depth > 3 ? 5 : 9);
    switch (kind) {
      case 0:
        return randomString();
      case 1:
        return pick(NUMBERS);
      case 2:
        return pick([true, false, null]);
      case 3:
        return jsonOnly ? null : pick(NON_JSON);
      case 4:
        return int(2) === 0 ? {} : [];
      case 5:
        return Array.from({ length: int(5) }, () => randomValue(depth + 1));
      case 6:
        return Object.fromEntries(Array.from({ length: int(5) }, () => [randomString(), randomValue(depth + 1)]));
      case 7:
        return pollutingObject();
      default: {
        // deep nesting
        let value: unknown = randomString();
        for (let i = 0; i < 200 + int(800); i += 1) value = int(2) ? [value] : { a: value };
        return value;
      }
    }
  }

  const profileIds = ['local', 'production', 'staging', 'fuzz-1', 'A', '-x', 'x'.repeat(41), 'local\n'];
  const uuid = () => crypto.randomUUID();
  // Underscores between the parts, so that no 8-character piece of a key is all digits, hex and
  // dashes: such a piece can match part of a time or a uuid in an answer, which the router then rightly
  // withholds (an 8-character piece of a key is hidden wherever it is: electron/core/keys/scrub.ts). With
  // dashes and a 9-digit tail, a keyStatus answer's time matched about one run in fifty.
  const newKey = () => `FUZZKEY_${seed}_${(keyCounter += 1)}_${int(1e9).toString(36)}`;

  /** The field values a channel's input should have, valid and invalid-but-plausible ones. */
  const FIELDS: Record<string, () => unknown> = {
    profileId: () => pick(profileIds),
    query: () => pick([{ limit: 20 }, {}, { limit: 0 }, { limit: 101 }, { limit: 2.5 }, { status: 'lost' }]),
    id: () => pick(['1', '9007199254740993', '9223372036854775807', '9223372036854775808', '-0', '01', 1, 'abc']),
    animal: () =>
      pick([
        { name: 'Rex', categoryId: '1' },
        { name: '   ', categoryId: '1' },
        { name: 'R'.repeat(201), categoryId: '1' },
        { name: 'Rex', categoryId: 1 },
        { name: 'Rex', categoryId: '1', status: 'sold' },
        { name: 'Rex', categoryId: '1', status: 'lost' },
        { name: 'Rex', categoryId: '1', id: '5' },
      ]),
    idempotencyKey: () => pick([uuid(), 'not-a-uuid', '', uuid().toUpperCase()]),
    batch: () => pick([uuid(), 'not-a-uuid']),
    localId: () => pick([uuid(), 'not-a-uuid', '']),
    complete: () => pick([true, false, 'yes']),
    outcome: () => pick(['acknowledged', 'discarded', 'lost']),
    proxy: () => pick(['proxy.corp:3128', '127.0.0.1:9', 'no-port', '[::1]:8080']),
    username: () => pick(['shelter', '', 'a:b']),
    password: () => pick([newKey(), '', 'x\u0000y']),
    entries: () =>
      pick([
        [],
        [{ localId: uuid(), idempotencyKey: uuid(), animal: { name: 'Fuzz', categoryId: '1' }, createdAt: 1 }],
        [{ localId: 'x', idempotencyKey: uuid(), animal: { name: '', categoryId: '1' }, createdAt: 'now' }],
      ]),
    name: () => pick(['Fuzz', '', ' ', 'N'.repeat(61)]),
    baseUrl: () => pick(['http://127.0.0.1:9/v1', 'http://evil.example/v1', 'https://a.example/v2', 'javascript:1']),
    color: () => pick(['blue', 'pink', 'RED']),
    key: () => pick([newKey(), `${newKey()} with space`, `${newKey()}\u0000`, `${newKey()}${'k'.repeat(5000)}`]),
  };
  const SHAPES: Record<Channel, string[]> = {
    listPets: ['profileId', 'query'],
    getPet: ['profileId', 'id'],
    createPet: ['profileId', 'animal', 'idempotencyKey'],
    keepEntries: ['profileId', 'batch', 'complete', 'entries'],
    settleEntry: ['profileId', 'localId', 'outcome', 'id'],
    safetyCopy: ['profileId'],
    updateStatus: [],
    ordersRaw: ['profileId'],
    listProfiles: [],
    saveProfile: ['name', 'baseUrl', 'color'],
    removeProfile: ['profileId'],
    setKey: ['profileId', 'key'],
    clearKey: ['profileId'],
    hasKey: ['profileId'],
    keyStatus: ['profileId'],
    testKey: ['profileId'],
    governorSnapshot: ['profileId'],
    diagnostics: [],
    proxyLogins: [],
    setProxyLogin: ['proxy', 'username', 'password'],
    clearProxyLogin: ['proxy'],
    systemLanguages: [],
    useLanguage: ['language'],
  };

  function keysIn(value: unknown): string[] {
    const text =
      typeof value === 'string'
        ? value
        : (JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? '' : v)) ?? '');
    return [...text.matchAll(/FUZZKEY_[\da-z_]+/g)].map((m) => m[0]);
  }

  function next(): FuzzCall {
    const roll = random();
    const channel = roll < 0.04 ? pick(UNKNOWN_CHANNELS) : pick(CHANNELS);
    const shape = Object.hasOwn(SHAPES, channel) ? SHAPES[channel as Channel] : ['profileId'];
    const input: Record<string, unknown> = {};
    for (const field of shape) input[field] = FIELDS[field]?.();
    const mutation = int(10);
    let value: unknown = input;
    if (mutation === 0) value = randomValue();
    else if (mutation === 1 && shape.length > 0) delete input[pick(shape)];
    else if (mutation <= 4 && shape.length > 0) input[pick(shape)] = randomValue();
    else if (mutation === 5) value = Object.assign(pollutingObject() as object, input);
    else if (mutation === 6) input[randomString()] = randomValue();
    // 7..9: the fields as drawn, often valid
    return { channel, input: value, keys: keysIn(value) };
  }

  return { next, random, int };
}
