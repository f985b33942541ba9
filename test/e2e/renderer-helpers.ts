/** Helpers for the renderer's e2e specs: screens by role, the service log, axe. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { readRequestLog, SUNSET_MS, type RequestLogLine } from '../service/index';
import { APP_KIND, expect, type E2eService } from './fixtures';

/**
 * What the detail screen says after asking the test service for one animal: that service runs
 * on the real clock, so its single-animal lookup answers ("confirmed") until its sunset and is
 * gone after it. One outcome for a given day, never either.
 */
export const DETAIL_REFRESH_NOW =
  Date.now() < SUNSET_MS
    ? 'Up to date: the service confirmed this animal just now.'
    : 'The service no longer offers looking up a single animal.';

/** The list screen has loaded the service's answer. */
export async function expectListLoaded(page: Page): Promise<void> {
  await expect(page.getByTestId('list-status')).toContainText('Updated');
}

/**
 * Types an animal into the Add form, presses Enter and waits for the form to speak of it: it
 * is saved on this device, or (the form follows the entry) already sent or set aside. It waits
 * for the Add form itself first and types only into it: right after a click on "Add animal" the
 * screen before may still be shown, with fields of the same names (issue 25: the Keys and
 * profiles screen's "Name a category" form once took the name).
 */
export async function addAnimal(page: Page, name: string, categoryId: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add an animal' });
  await expect(form).toBeVisible();
  await form.getByLabel(/^Name/).fill(name);
  await form.getByLabel(/^Category ID/).fill(categoryId);
  await form.getByLabel(/^Category ID/).press('Enter');
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(form.getByTestId('add-result')).toContainText(
    new RegExp(`^\\s*${escaped} (is saved on this device|was sent \\(ID|was not accepted|needs a check)`),
  );
}

/** The requests that created an animal (a replay of an idempotency key creates nothing). */
export async function creations(service: E2eService): Promise<RequestLogLine[]> {
  return (await readRequestLog(service.logFile)).filter((line) => line.createdId !== null);
}

/**
 * Axe finds no violation on the current screen. In Electron, axe runs in legacy mode (`axe.run` in
 * the page): its default `analyze()` finishes in a new blank page (`context.newPage()`,
 * @axe-core/playwright 4.13.0 dist/index.mjs:313), which Playwright asks for with
 * `Target.createTarget`, and Electron creates no target on request
 * (shell/browser/ui/devtools_manager_delegate.cc:171-174 `CreateNewTarget` returns nullptr: "Not
 * supported"). The app has no frames, so legacy mode's limit (same-origin frames only) loses nothing.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(APP_KIND === 'electron').analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary).toEqual([]);
}
