/**
 * Queues many animals through the app's own Add form, fast: inside the page, for each
 * animal it types into the Name and Category ID inputs (input events, as typing does),
 * submits the form and waits for the form's own word about it ("… is saved on this device", or
 * already "… was sent"), which the app shows only after the outbox transaction committed. This is the same code
 * path as staff pressing Enter (form store → OutboxStore.enqueue → Outbox.enqueue → sync
 * kick); only the keystrokes are skipped. No IndexedDB row is written by the test.
 */
import { expect, type Page } from '@playwright/test';

export interface QueuedAnimal {
  name: string;
  categoryId: string;
}

/** The Add screen must be open. Resolves once every animal is durably queued. */
export async function queueThroughForm(page: Page, animals: QueuedAnimal[]): Promise<void> {
  await expect(page.getByRole('form', { name: 'Add an animal' })).toBeVisible();
  await page.evaluate(async (list) => {
    const form = document.querySelector<HTMLFormElement>('form[aria-label="Add an animal"]');
    const name = document.querySelector<HTMLInputElement>('#add-name');
    const category = document.querySelector<HTMLInputElement>('#add-category');
    if (!form || !name || !category) throw new Error('the Add form is not on screen');
    const type = (input: HTMLInputElement, value: string) => {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    const confirmed = (expected: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const alert = form.querySelector('[role="alert"]');
          if (alert) return reject(new Error(`the form refused ${expected}: ${alert.textContent ?? ''}`));
          const text = form.querySelector('[data-testid="add-result"]')?.textContent ?? '';
          // Any word of the form about this animal (saved, already sent, set aside) means it is stored.
          if (text.trim().startsWith(`${expected} `)) return resolve();
          setTimeout(check, 5);
        };
        check();
      });
    for (const animal of list) {
      type(name, animal.name);
      type(category, animal.categoryId);
      form.requestSubmit();
      await confirmed(animal.name);
    }
  }, animals);
}

/** A shuffled-looking but seeded, always valid category id. */
export function categoryFor(index: number): string {
  return String((index % 9) + 1);
}
