/**
 * Queues many animals through the app's own Add form, fast: inside the page, for each
 * animal it types into the Name and Category ID inputs (input events, as typing does),
 * submits the form and waits for the form's own word about it ("… is saved on this device", or
 * already "… was sent"), which the app shows only after the outbox transaction committed. This is the same code
 * path as staff pressing Enter (form store → QueueStore.enqueue → Outbox.enqueue → sync
 * kick); only the keystrokes are skipped. No IndexedDB row is written by the test.
 */
import { expect, type Page } from '@playwright/test';

export interface QueuedAnimal {
  name: string;
  categoryId: string;
}

/** What the form said of each animal, by name: `saved` (its word that the animal is kept) or the refusal. */
export type FormOutcomes = Record<string, { saved: true } | { saved: false; refusal: string }>;

/**
 * Adds the animals through the Add form (which must be on screen), one after another, as fast as
 * the form takes them, and records what the form said of each. With `stopAtRefusal` it stops at
 * the first animal the form refused.
 */
export function addThroughForm(page: Page, animals: QueuedAnimal[], stopAtRefusal: boolean): Promise<FormOutcomes> {
  return page.evaluate(
    async ({ list, stop }) => {
      const outcomes: FormOutcomes = {};
      const form = document.querySelector<HTMLFormElement>('form[aria-label="Add an animal"]');
      const name = document.querySelector<HTMLInputElement>('#add-name');
      const category = document.querySelector<HTMLInputElement>('#add-category');
      if (!form || !name || !category) throw new Error('the Add form is not on screen');
      const type = (input: HTMLInputElement, value: string) => {
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      };
      const answer = (expected: string) =>
        new Promise<FormOutcomes[string]>((resolve) => {
          const check = () => {
            const alert = form.querySelector('[role="alert"]');
            if (alert) return resolve({ saved: false, refusal: alert.textContent ?? '' });
            const text = form.querySelector('[data-testid="add-result"]')?.textContent ?? '';
            // Any word of the form about this animal (saved, already sent, set aside) means it is stored.
            if (text.trim().startsWith(`${expected} `)) return resolve({ saved: true });
            setTimeout(check, 2);
          };
          check();
        });
      for (const animal of list) {
        type(name, animal.name);
        type(category, animal.categoryId);
        form.requestSubmit();
        const outcome = await answer(animal.name);
        outcomes[animal.name] = outcome;
        if (!outcome.saved && stop) break;
      }
      return outcomes;
    },
    { list: animals, stop: stopAtRefusal },
  );
}

/** The Add screen must be open. Resolves once every animal is durably queued; fails at the first refusal. */
export async function queueThroughForm(page: Page, animals: QueuedAnimal[]): Promise<void> {
  await expect(page.getByRole('form', { name: 'Add an animal' })).toBeVisible();
  const outcomes = await addThroughForm(page, animals, true);
  for (const [name, outcome] of Object.entries(outcomes))
    if (!outcome.saved) throw new Error(`the form refused ${name}: ${outcome.refusal}`);
}

/** A shuffled-looking but seeded, always valid category id. */
export function categoryFor(index: number): string {
  return String((index % 9) + 1);
}
