/**
 * English and Spanish (issue 23, docs/i18n.md), in the browser host and in Electron: the system's
 * language by default (Playwright's `locale`: the browser's `navigator.languages`, or what
 * Electron's main reads with `app.getPreferredSystemLanguages()`, see fixtures.ts), staff's choice
 * under Keys and profiles → Language, remembered across a reload; the main flows in Spanish chosen
 * through the UI (list, add, detail, offline and back, an error of the contract, import, export:
 * the browser's download, or Electron's save dialog); a screenshot of the list in Spanish for the
 * README (taken in the browser host; Electron's window is checked the same way, its picture kept
 * with the test's output).
 *
 * The main labels are written here in Spanish, literally, so that a wrong or English catalogue
 * fails; long sentences come from the catalogue through `message('es', …)`.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { SUNSET_MS } from '../service/index';
import { APP_KIND, expect, test } from './fixtures';
import { creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { message } from './support/language';
import { createOnService, exportedFile, serviceList, upload } from './support/toolkit';

const README_SHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

/** Saved like screenshots.spec.ts: the README's copy with UPDATE_SCREENSHOTS=1 (browser host), else the test's output. */
async function shoot(page: Page, name: string): Promise<void> {
  const path =
    process.env.UPDATE_SCREENSHOTS && APP_KIND === 'browser'
      ? resolve(README_SHOTS, `${name}.png`)
      : test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
}

/** The page shows `lang` (its catalogue loaded, `<html lang>` set). */
async function expectLang(page: Page, lang: 'en' | 'es'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

/** The Spanish list has loaded the service's answer: "Actualizado a las 10:42 · 20 mostrados". */
async function expectListLoadedEs(page: Page, shown?: number): Promise<void> {
  const count = shown === undefined ? '\\d+' : String(shown);
  await expect(page.getByTestId('list-status')).toHaveText(
    new RegExp(`^\\s*Actualizado a las \\d\\d:\\d\\d · ${count} mostrados?\\s*$`),
  );
}

/** The names of the rows shown, in order. */
async function rowNames(page: Page): Promise<string[]> {
  return page.getByTestId('animal-row').locator('.animal-row__name').allTextContents();
}

/** The ids of the rows shown, in order. */
async function rowIds(page: Page): Promise<string[]> {
  return page.getByTestId('animal-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''));
}

test.describe('a Spanish system', () => {
  test.use({ locale: 'es-MX', serviceOptions: { seedAnimals: 12 } });

  test('opens in Spanish; staff choose English, it stays after a reload; "system language" brings Spanish back', async ({
    app,
  }) => {
    const { page } = app;
    await expectLang(page, 'es');
    await expect(page.getByRole('heading', { level: 2, name: 'Animales' })).toBeVisible();
    await expectListLoadedEs(page, 12);

    await page.getByRole('link', { name: 'Claves y perfiles' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Claves y perfiles' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: 'Idioma', exact: true })).toBeVisible();
    const picker = page.getByLabel('Idioma de la aplicación');
    await expect(picker).toHaveValue('system');
    await expect(picker.locator('option:checked')).toHaveText('Idioma del sistema (Español)');
    await expectNoAxeViolations(page);

    // English at once: no reload, every part of the window.
    await picker.selectOption({ label: 'English' });
    await expectLang(page, 'en');
    await expect(page.getByRole('heading', { level: 2, name: 'Keys and profiles' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Animals', exact: true })).toBeVisible();
    const englishPicker = page.getByLabel('Language of the app');
    await expect(englishPicker).toHaveValue('en');

    // Remembered.
    await page.reload();
    await expectLang(page, 'en');
    await expect(page.getByRole('heading', { level: 2, name: 'Keys and profiles' })).toBeVisible();
    await expect(englishPicker).toHaveValue('en');
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expectListLoaded(page);

    // Back to the system's language: Spanish again, and that choice is remembered too.
    await page.getByRole('link', { name: 'Keys and profiles' }).click();
    await expect(englishPicker.locator('option[value="system"]')).toHaveText('System language (Español)');
    await englishPicker.selectOption('system');
    await expectLang(page, 'es');
    await expect(page.getByRole('heading', { level: 2, name: 'Claves y perfiles' })).toBeVisible();
    await expect(picker).toHaveValue('system');
    await page.reload();
    await expectLang(page, 'es');
    await page.getByRole('link', { name: 'Animales', exact: true }).click();
    await expectListLoadedEs(page, 12);
  });
});

test.describe('Spanish chosen by staff', () => {
  // Few enough animals that every row is drawn (the list is virtualised): 6 seeded and 3 of the test's.
  test.use({ serviceOptions: { seedAnimals: 6 } });

  test('list, add, detail, offline and back, a contract error, import and export, all in Spanish', async ({
    app,
  }, testInfo) => {
    test.setTimeout(120_000);
    const { page, service } = app;
    // Names that Spanish sorts its own way: ñ is a letter of its own, after n.
    for (const name of ['Ñandú', 'Nube', 'Oso'])
      await createOnService(service, { name, categoryId: '1', status: 'available' });

    // The system is English (Playwright's default locale): so is the window, until staff choose.
    await expectLang(page, 'en');
    await expectListLoaded(page);
    await page.getByRole('link', { name: 'Keys and profiles' }).click();
    await page.getByLabel('Language of the app').selectOption({ label: 'Español' });
    await expectLang(page, 'es');
    await expect(page.getByRole('heading', { level: 2, name: 'Claves y perfiles' })).toBeVisible();
    await expect(page.getByLabel('Idioma de la aplicación')).toHaveValue('es');
    await expectNoAxeViolations(page);

    // A key with a space in it: the contract's reason, in Spanish; the saved key stays.
    const keyCard = page.getByRole('region', { name: 'Clave de API', exact: true });
    await expect(keyCard.getByTestId('key-state')).toHaveText('Clave guardada');
    await keyCard.getByLabel('Sustituir la clave de API').fill('clave con espacio');
    await keyCard.getByRole('button', { name: 'Guardar clave' }).click();
    await expect(keyCard).toContainText(
      message('es', 'shell.keyInvalid', { reason: message('es', 'contract.keySpaces') }),
    );
    await expect(keyCard.getByTestId('key-state')).toHaveText('Clave guardada');

    // What the core worded before the choice (the updates' status, read at start) is read again in Spanish.
    await page.getByRole('link', { name: 'Diagnóstico', exact: true }).click();
    await expect(page.getByRole('main')).toContainText(message('es', 'coreUpdates.notInstalledApp'));
    await expect(page.getByRole('main')).not.toContainText(message('en', 'coreUpdates.notInstalledApp'));

    // The Animals list: its status line, the status filter, search and sort.
    await page.getByRole('link', { name: 'Animales', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Animales' })).toBeVisible();
    await page.getByRole('button', { name: 'Actualizar', exact: true }).click();
    await expectListLoadedEs(page, 9);
    const rows = page.getByTestId('animal-row');
    await expect(page.getByTestId('animal-rows')).toHaveAttribute('data-count', '9');
    await expect(rows).toHaveCount(9);

    await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'disponible' });
    const available = await serviceList(service, 'status=available&limit=20');
    await expectListLoadedEs(page, available.length);
    await expect(rows).toHaveCount(available.length);
    await expect.poll(() => rowIds(page)).toEqual(available.map((animal) => animal.id));
    expect(new Set(await rows.locator('.chip').allTextContents())).toEqual(new Set(['disponible']));

    await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'todos' });
    await expectListLoadedEs(page, 9);
    await page.getByLabel('Buscar por nombre').fill('ñandu');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('Ñandú');
    await expect(page.getByTestId('list-status')).toContainText('1 mostrado');
    await page.getByLabel('Buscar por nombre').fill('zzz');
    await expect(page.getByText(message('es', 'list.noneMatchSearch', { search: 'zzz' }))).toBeVisible();
    await page.getByLabel('Buscar por nombre').fill('');
    await expect(rows).toHaveCount(9);

    await page.getByLabel('Ordenar por').selectOption({ label: 'Nombre (A–Z)' });
    const spanish = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
    const sortedByName = (names: string[]) => names.join('|') === [...names].sort(spanish.compare).join('|');
    await expect.poll(async () => sortedByName(await rowNames(page))).toBe(true);
    const byName = await rowNames(page);
    const at = (name: string) => byName.indexOf(name);
    expect(at('Nube')).toBeLessThan(at('Ñandú'));
    expect(at('Ñandú')).toBeLessThan(at('Oso'));
    await page.getByLabel('Ordenar por').selectOption({ label: 'ID (de menor a mayor)' });
    await expect
      .poll(async () => {
        const ids = await rowIds(page);
        return ids.every((id, i) => i === 0 || BigInt(ids[i - 1]!) < BigInt(id));
      })
      .toBe(true);
    await expectNoAxeViolations(page);

    // Export CSV: Spanish column names; ids and the service's status values as the service has them.
    const onService = await serviceList(service, 'limit=20');
    const file = await exportedFile(
      app,
      page.getByRole('button', { name: 'Exportar CSV' }),
      testInfo.outputPath('saved'),
    );
    expect(file.name).toMatch(/^animales-local-demo-\d{4}-\d{2}-\d{2}\.csv$/);
    await expect(page.getByTestId('export-result')).toHaveText(
      message('es', APP_KIND === 'electron' ? 'shell.exportSaved' : 'shell.exportDownloaded', {
        what: message('es', 'toolkit.exportWhat', { count: 9 }),
        fileName: file.name,
      }),
    );
    expect(file.text.startsWith('\uFEFF')).toBe(true);
    const csv = Papa.parse<string[]>(file.text.slice(1), { skipEmptyLines: true }).data;
    expect(csv[0]).toEqual(['nombre', 'categoría', 'nombre de categoría', 'estado', 'id']);
    // In the order shown (by id), every animal exactly as the service has it.
    expect(csv.slice(1)).toEqual(
      [...onService]
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
        .map((animal) => [animal.name, animal.categoryId, '', animal.status ?? '', animal.id]),
    );
    expect(csv.slice(1).map((row) => row[3])).toContain('available');

    // An animal's details.
    const nube = onService.find((animal) => animal.name === 'Nube');
    if (!nube) throw new Error('Nube is not on the service');
    // By the keyboard: a notice appearing above the list (the export's) may move a row under a mouse.
    await rows.filter({ hasText: 'Nube' }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`#/animals/${nube.id}$`));
    await expect(page.getByRole('heading', { level: 2, name: 'Nube' })).toBeVisible();
    const detail = page.getByTestId('animal-detail');
    for (const term of ['Nombre', 'ID', 'Categoría', 'Estado', 'Confirmado por el servicio por última vez']) {
      await expect(detail.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) })).toBeVisible();
    }
    await expect(detail).toContainText(nube.id);
    await expect(detail.locator('.chip')).toHaveText('disponible');
    // The test service runs on the real clock: its single-animal lookup answers until its sunset.
    await expect(page.getByTestId('detail-refresh')).toHaveText(
      message('es', Date.now() < SUNSET_MS ? 'detail.confirmed' : 'detail.gone'),
    );
    await expect(page.getByRole('link', { name: 'Volver a la lista' })).toBeVisible();
    await expectNoAxeViolations(page);

    // Add animal: an empty submit, then one sent at once.
    const indicator = page.getByRole('status', { name: 'Conexión y sincronización' });
    await page.getByRole('link', { name: 'Añadir animal', exact: true }).click();
    const form = page.getByRole('form', { name: 'Añadir un animal' });
    await expect(page.getByRole('heading', { level: 2, name: 'Añadir un animal' })).toBeVisible();
    await form.getByRole('button', { name: 'Añadir animal' }).click();
    await expect(form.getByText('El nombre es obligatorio.')).toBeVisible();
    await expect(form.getByText('El ID de categoría es obligatorio.')).toBeVisible();
    await expect(form.getByLabel(/^Nombre/)).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page);

    const result = form.getByTestId('add-result');
    await form.getByLabel(/^Nombre/).fill('Galleta');
    await form.getByLabel(/^ID de categoría/).fill('3');
    await form.getByLabel(/^Estado/).selectOption({ label: 'pendiente' });
    await form.getByLabel(/^ID de categoría/).press('Enter');
    await expect(result).toHaveText(/^\s*Galleta se envió \(ID \d+\)\.\s*$/);
    await expect(indicator).toContainText('Conectado');
    await expect(indicator).toContainText('todo enviado');
    const galleta = (await serviceList(service)).find((animal) => animal.name === 'Galleta');
    expect(galleta).toMatchObject({ categoryId: '3', status: 'pending' });
    await expect(result).toHaveText(message('es', 'add.sent', { name: 'Galleta', id: galleta!.id }));

    // Offline: the animal waits, said in Spanish; the core's own error in Spanish too.
    await service.stop();
    await form.getByLabel(/^Nombre/).fill('Churro');
    await form.getByLabel(/^ID de categoría/).fill('2');
    await form.getByLabel(/^ID de categoría/).press('Enter');
    await expect(result).toHaveText(message('es', 'add.waiting', { name: 'Churro' }));
    await expect(indicator).toContainText('Sin conexión');
    await expect(indicator).toContainText('1 en espera de envío');
    await expect(page.getByTestId('sync-waiting')).toHaveText(message('es', 'sync.offlineWaiting', { count: 1 }));
    await expectNoAxeViolations(page);

    await page.getByRole('link', { name: 'Animales', exact: true }).click();
    await expect(page.getByTestId('list-status')).toContainText(/Sin conexión: se muestra lo guardado a las \d\d:\d\d/);
    const queued = page.getByTestId('queued-row');
    await expect(queued).toHaveCount(1);
    await expect(queued).toContainText('Churro');
    await expect(queued).toContainText('en espera de envío');
    await expectNoAxeViolations(page);

    await page.getByRole('link', { name: 'Claves y perfiles' }).click();
    await keyCard.getByRole('button', { name: 'Probar clave' }).click();
    await expect(keyCard.getByTestId('key-test')).toHaveText(message('es', 'core.offline'));

    // The service back: Churro is sent, exactly once.
    await service.restart();
    await expect(indicator).toContainText('Conectado', { timeout: 30_000 });
    await expect(indicator).toContainText('todo enviado', { timeout: 30_000 });
    // The app's creations, after the test's own three straight on the service.
    const created = (await creations(service)).slice(3);
    expect(created).toHaveLength(2);
    expect(created.every((line) => line.idempotencyKey !== null)).toBe(true);
    const churros = (await serviceList(service)).filter((animal) => animal.name === 'Churro');
    expect(churros).toHaveLength(1);
    expect(created.map((line) => line.createdId)).toEqual([galleta!.id, churros[0]!.id]);
    await page.getByRole('link', { name: 'Animales', exact: true }).click();
    await expect(queued).toHaveCount(0);

    // Import: a file with Spanish headers and status values; its preview in Spanish.
    await page.getByRole('link', { name: 'Importar', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Importar desde una hoja de cálculo' })).toBeVisible();
    await page
      .getByLabel('Archivo de hoja de cálculo (.csv)')
      .setInputFiles(upload('animales.csv', 'nombre,categoría,estado\r\nCanela,3,disponible\r\n'));
    await expect(page.getByTestId('import-summary')).toHaveText(
      `animales.csv: ${message('es', 'toolkit.importSummary', { rows: 1, valid: 1, invalid: 0, flagged: 0 })}`,
    );
    const table = page.getByRole('table', {
      name: message('es', 'toolkit.importTableCaption', { file: 'animales.csv' }),
    });
    await expect(table.getByRole('columnheader')).toHaveText(['Fila', 'Nombre', 'Categoría', 'Estado', 'Resultado']);
    await expect(table.getByTestId('import-row').getByRole('cell')).toHaveText([
      '2',
      'Canela',
      '3',
      'disponible',
      'Listo.',
    ]);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Añadir 1 animal a la cola' }).click();
    await expect(page.getByTestId('import-result')).toContainText(
      message('es', 'toolkit.importSaved', { count: 1, file: 'animales.csv' }),
    );
    await expect(indicator).toContainText('todo enviado', { timeout: 30_000 });
    await expect.poll(async () => (await creations(service)).length).toBe(6);
    const canela = (await serviceList(service)).filter((animal) => animal.name === 'Canela');
    expect(canela).toEqual([expect.objectContaining({ categoryId: '3', status: 'available' })]);
  });
});

test.describe('the README screenshot', () => {
  test.use({ viewport: { width: 1200, height: 760 }, serviceOptions: { seedAnimals: 60 }, locale: 'es-ES' });

  test('the Animals list in Spanish', async ({ app }) => {
    const { page } = app;
    await expectLang(page, 'es');
    await expectListLoadedEs(page, 20);
    await expect(page.getByTestId('animal-rows')).toHaveAttribute('data-count', '20');
    await expect(page.getByRole('status', { name: 'Conexión y sincronización' })).toContainText('Conectado');
    await expectNoAxeViolations(page);
    await shoot(page, 'list-es');
  });
});
