/**
 * The smoke test in Electron: the app starts on the Local demo profile and shows its
 * animals. Runs only where the Electron binary is installed (never here: it cannot be
 * downloaded on these machines); otherwise skipped with the reason printed.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeBoundKey } from '../../../electron/core/keys/bound-key';
import { openOsKeychain } from '../../../electron/core/keys/os-keychain';
import { findElectronBinary } from '../../../scripts/lib/electron-binary';
import { startService } from '../../service/index';
import { e2eOutDir } from '../support/global-setup';

const binary = findElectronBinary();

test('Electron: the app starts on the Local demo profile and shows its animals', async () => {
  if (!binary.found) {
    const reason = `Electron binary not installed: ${binary.reason}`;
    console.log(`[electron e2e] skipped: ${reason}`);
    test.skip(true, reason);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'adoption-e2e-electron-'));
  const key = `e2e-${randomUUID()}`;
  const keychainService = `Adoption Desk e2e ${randomUUID()}`;
  const service = await startService({ port: 0, keys: { [key]: 'free' }, seedAnimals: 40 });
  const keychain = await openOsKeychain(keychainService);
  await storeBoundKey(keychain, 'local', service.url, key);
  const app = await electron.launch({
    executablePath: binary.path,
    args: [join(e2eOutDir(), 'main', 'index.js')],
    env: {
      ...process.env,
      ADOPTION_USER_DATA_DIR: dataDir,
      ADOPTION_LOCAL_DEMO_URL: service.url,
      ADOPTION_KEYCHAIN_SERVICE: keychainService,
    },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');
    const response = await fetch(`${service.url}/pets?limit=5`, { headers: { Authorization: `Bearer ${key}` } });
    const names = ((await response.json()) as { name: string }[]).map((animal) => animal.name);
    for (const name of names) await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { adoption?: { host: string } }).adoption?.host)).toBe(
      'electron',
    );
  } finally {
    await app.close();
    await keychain.delete('local').catch(() => undefined);
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
