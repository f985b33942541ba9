/**
 * The fields of "Edit and resend" load with the first edit (attention-entry.test.ts); should their
 * file not load, staff read so, and that the animal is kept, instead of an empty form.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import AttentionEntry from '../../../src/queue/AttentionEntry.svelte';
import type { QueueStore } from '../../../src/queue/queue.svelte';
import { appError, newAnimal } from '../support/test-helpers';

vi.mock('../../../src/add/AnimalFields.svelte', () => {
  throw new Error('the file could not be read');
});

const refused = (): OutboxEntry => ({
  ...newOutboxEntry(newAnimal('Rex', '9', 'available'), 0),
  localId: 'l2',
  state: 'needs_attention',
  lastError: appError('invalid', 'categoryId 9 does not exist'),
});

afterEach(cleanup);

describe('an entry to fix and resend, its fields not loading', () => {
  it('says the fields could not be shown and that the animal is kept', async () => {
    const outbox = { editAndResend: vi.fn(), discard: vi.fn() } as unknown as QueueStore;
    render(AttentionEntry, { entry: refused(), outbox });
    await fireEvent.click(screen.getByRole('button', { name: 'Edit & resend Rex' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^The fields to edit Rex could not be shown: .+\. Rex is kept on this device\.$/);
    expect(screen.queryByRole('textbox', { name: /^Name/ })).toBeNull();
    expect(outbox.editAndResend).not.toHaveBeenCalled();
  });
});
