/**
 * Electron (issue 21): the app is served from its own `app://adoption-desk` origin
 * (electron/main/app-protocol.ts), not `file://`: a route in the address survives a reload and
 * opens directly (a deep link), every answer carries the CSP and `no-store`, and nothing outside
 * the built renderer is served.
 */
import { CONTENT_SECURITY_POLICY } from '../../../electron/core/content-security-policy';
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
  const answers = await app.page.evaluate(async () => {
    const read = async (path: string) => {
      const response = await fetch(path);
      return {
        status: response.status,
        csp: response.headers.get('content-security-policy'),
        cache: response.headers.get('cache-control'),
      };
    };
    return { page: await read('/index.html'), outside: await read('/..%2fmain%2findex.js') };
  });
  expect(answers.page).toEqual({ status: 200, csp: CONTENT_SECURITY_POLICY, cache: 'no-store' });
  expect(answers.outside.status).toBe(404);
  // The same CSP as a meta tag, but for frame-ancestors, which a meta tag cannot hold.
  const meta = await app.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toBe(CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'; ", ''));
});
