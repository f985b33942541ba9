/** Helpers for the event-toolkit specs: the service's animals exactly, files in and out, PDF text. */
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, sep } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Animal } from '../../../src/shared/records/animal';
import { decodeJson, encodeJson } from '../../../src/shared/records/json-codec';
import { APP_KIND, type E2eApp, expect, type E2eService } from '../fixtures';

/** The service's answer to `GET /pets?<query>`, ids as exact decimal strings. */
export async function serviceList(service: E2eService, query = 'limit=100'): Promise<Animal[]> {
  const response = await fetch(`${service.url}/pets?${query}`, { headers: { Authorization: `Bearer ${service.key}` } });
  if (!response.ok) throw new Error(`the service answered ${response.status}`);
  return decodeJson(await response.text()) as Animal[];
}

/** Creates an animal straight on the service (as another laptop would). */
export async function createOnService(service: E2eService, animal: Omit<Animal, 'id'>): Promise<Animal> {
  const response = await fetch(`${service.url}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${service.key}`, 'Content-Type': 'application/json' },
    body: encodeJson(animal),
  });
  if (response.status !== 201) throw new Error(`the service answered ${response.status}`);
  return decodeJson(await response.text()) as Animal;
}

/** A file for `setInputFiles`. */
export function upload(name: string, content: string | Uint8Array, mimeType = 'text/csv') {
  return { name, mimeType, buffer: Buffer.from(content) };
}

/** Clicks `button` and returns the file the browser downloads (name and UTF-8 text). */
export async function download(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/**
 * Clicks `button` and returns the file the app exported (name and UTF-8 text), in either project:
 * the browser's download, or in Electron the file main wrote where the native save dialog said.
 * That dialog is answered as staff would answer it (as in electron/desktop.spec.ts: a real one
 * would wait for a person): the name the app suggested, in `folder`.
 */
export async function exportedFile(
  app: E2eApp,
  button: Locator,
  folder: string,
): Promise<{ name: string; text: string }> {
  if (APP_KIND !== 'electron') return download(app.page, button);
  mkdirSync(folder, { recursive: true });
  await app.host.electronApp.evaluate(
    ({ dialog }, where) => {
      const chosen: string[] = [];
      (globalThis as unknown as { exportsChosen: string[] }).exportsChosen = chosen;
      dialog.showSaveDialog = (async (...args: unknown[]) => {
        const { defaultPath = 'export' } = args.at(-1) as { defaultPath?: string };
        const filePath = `${where.folder}${where.sep}${defaultPath.split(/[\\/]/).pop()}`;
        chosen.push(filePath);
        return { canceled: false, filePath };
      }) as typeof dialog.showSaveDialog;
    },
    { folder, sep },
  );
  await button.click();
  const chosen = () =>
    app.host.electronApp.evaluate(() => (globalThis as unknown as { exportsChosen: string[] }).exportsChosen);
  await expect.poll(async () => (await chosen()).length).toBe(1);
  const [path] = await chosen();
  // Main writes the file whole and renames it into place (desktop-channels.ts): once there, it is complete.
  await expect.poll(() => existsSync(path!)).toBe(true);
  return { name: basename(path!), text: await readFile(path!, 'utf8') };
}

/** The text of every page of a PDF, white space collapsed (pdf.js, legacy build: runs in Node 20, offline). */
export async function pdfPages(pdf: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, disableFontFace: true }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= doc.numPages; number += 1) {
    const content = await (await doc.getPage(number)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join('');
    pages.push(text.replace(/\s+/g, ' ').trim());
  }
  await doc.destroy();
  return pages;
}

/** Names a category in Keys and profiles (the page must show that screen). */
export async function nameCategory(page: Page, id: string, name: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Name a category' });
  await form.getByLabel('Category ID').fill(id);
  await form.getByLabel('Category name').fill(name);
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByTestId('category-notice')).toHaveText(`Category ${id} is now called “${name}”.`);
}
