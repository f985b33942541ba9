/**
 * Electron (issue 21): the app is served from its own `app://adoption-desk` origin
 * (electron/main/app-protocol.ts), not `file://`: a route in the address survives a reload and
 * opens directly (a deep link), every answer carries the CSP and `no-store`, nothing outside
 * the built renderer is served, and the page cannot read its own origin with fetch().
 */
import { CONTENT_SECURITY_POLICY } from '../../../electron/core/content-security-policy';
import { APP_HOST, APP_SCHEME } from '../../../electron/main/app-protocol';
import { expect, test } from '../fixtures';

test('Electron: routes live in the app:// address, survive a reload and open directly', async ({ app }) => {
  const { page, host } = app;
  expect(page.url()).toMatch(/^app:\/\/adoption-desk\/index\.html/);
  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await expect(page).toHaveURL(`${host.url}#/saved`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Saved on this device' })).toBeVisible();

  await page.goto(`${host.url}#/diagnostics`);
  await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible();
});

test('Electron: every app:// answer carries the CSP and no-store; nothing outside the renderer is served', async ({
  app,
}) => {
  const { page, host } = app;
  // Asked from main with net.fetch, which reaches the app:// handler (docs/api/net.md: "requests made
  // with net.fetch can be made to custom protocols"). It passes through the session's webRequest
  // (shell/common/api/electron_api_url_loader.cc:533-540 → InterceptURLLoaderFactory), where
  // window.ts guardSession sets the same CSP: the handler's own header is proven in
  // test/electron/main/app-protocol.test.ts; `no-store` here comes from the handler alone.
  const answers = await host.electronApp.evaluate(async ({ net }, origin) => {
    const read = async (path: string) => {
      const response = await net.fetch(`${origin}${path}`);
      return {
        status: response.status,
        csp: response.headers.get('content-security-policy'),
        cache: response.headers.get('cache-control'),
      };
    };
    return { page: await read('/index.html'), outside: await read('/..%2fmain%2findex.js') };
  }, `${APP_SCHEME}://${APP_HOST}`);
  expect(answers.page).toEqual({ status: 200, csp: CONTENT_SECURITY_POLICY, cache: 'no-store' });
  expect(answers.outside.status).toBe(404);
  // The same CSP as a meta tag, but for frame-ancestors, which a meta tag cannot hold.
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toBe(CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'; ", ''));
});

test('Electron: the page cannot fetch() its own app:// origin (the scheme has no supportFetchAPI)', async ({ app }) => {
  // The renderer never fetches app:// (its API is the preload's IPC), so the scheme is not given
  // supportFetchAPI (app-protocol.ts): Blink refuses fetch() of it before any request is made
  // (electron spec/api-protocol-spec.ts "allows CORS, but disallows fetch requests, when specified").
  const outcome = await app.page.evaluate(() =>
    fetch('/index.html').then(
      (response) => `answered ${response.status}`,
      (error: unknown) => (error instanceof TypeError ? 'refused' : `failed otherwise: ${String(error)}`),
    ),
  );
  expect(outcome).toBe('refused');
});
