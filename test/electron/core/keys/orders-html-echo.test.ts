/**
 * Issue 31.2 (security review 2026-11, finding 2, last part): a service that wrote only the key's
 * punctuation as HTML character references (`&#43;` for `+`, `&#47;` for `/`) got the key onto
 * Store orders, which shows whatever JSON the service answers (src/orders). Through the app
 * core's router over real HTTP: every way of writing those references is hidden, and what the
 * Store orders view shows, read as HTML, holds no key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import { HIDDEN_KEY } from '../../../../electron/core/keys/scrub';
import { closeHtml, htmlDecode, percentDecode } from './secret-forms';

const RESOURCES = resolve(import.meta.dirname, '../../../resources');
/** A key as base64-made keys are: punctuation every few characters, so no 8 characters go without it. */
const KEY = 'Zk+9/aQ+x/7P+w/Lm+3/Ty+q/Vd=';

/** The key written as services write it, its punctuation as HTML references of every kind. */
const ECHOES: Record<string, string> = {
  decimal: KEY.replace(/\+/g, '&#43;').replace(/\//g, '&#47;').replace(/=/g, '&#61;'),
  hex: KEY.replace(/\+/g, '&#x2b;').replace(/\//g, '&#X2F;').replace(/=/g, '&#x3D;'),
  named: KEY.replace(/\+/g, '&plus;').replace(/\//g, '&sol;').replace(/=/g, '&equals;'),
  leadingZeros: KEY.replace(/\+/g, '&#00043;').replace(/\//g, '&#x0002f;'),
  mixed: KEY.replace(/\+/g, (_, at: number) => (at % 2 ? '&plus;' : '&#x2B;')).replace(/\//g, '&#047;'),
  withoutSemicolons: KEY.replace(/\+(?!\d)/g, '&#43')
    .replace(/\+/g, '&#43;')
    .replace(/\//g, '&sol;'),
  percentAndHtml: KEY.replace(/\+/g, '%2B').replace(/\//g, '&#47;'),
  allCharacters: [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''),
};

describe('Store orders: a key whose punctuation the service writes as HTML references', () => {
  let dataDir: string;
  let server: Server;
  let core: AppCore;

  beforeAll(async () => {
    // the test's own writing of the key is right
    for (const [name, echo] of Object.entries(ECHOES)) expect(htmlDecode(percentDecode(echo)), name).toBe(KEY);
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-orders-html-'));
    server = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      if (!request.url?.startsWith('/v1/store/orders')) return response.end('[]');
      response.end(
        JSON.stringify({
          orders: Object.entries(ECHOES).map(([name, echo], id) => ({ id, name, note: `token ${echo} used` })),
          [ECHOES.named!]: ECHOES.decimal,
        }),
      );
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore: new MemorySecretStore(),
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: `http://127.0.0.1:${port}/v1`,
      logError: () => {},
    });
    expect(await core.router.handle('setKey', { profileId: 'local', key: KEY })).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    await core.dispose();
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(dataDir, { recursive: true, force: true });
    await closeHtml();
  });

  it('hides every one, and the view (JSON, read as HTML) holds no key', async () => {
    const answer = await core.router.handle('ordersRaw', { profileId: 'local' });
    expect(answer).toMatchObject({ ok: true });
    const body = (answer as { data: { body: { orders: Array<{ name: string; note: string }> } } }).data.body;
    for (const order of body.orders) expect(order.note, order.name).toBe(`token ${HIDDEN_KEY} used`);
    expect(Object.entries(body).filter(([name]) => name !== 'orders')).toEqual([[HIDDEN_KEY, HIDDEN_KEY]]);
    // what the Store orders view shows (src/orders/orders.svelte.ts), read as a person or a browser would
    const shown = JSON.stringify(body, null, 2);
    expect(htmlDecode(percentDecode(shown))).not.toContain(KEY);
    expect(htmlDecode(shown)).not.toContain(KEY);
  });
});
