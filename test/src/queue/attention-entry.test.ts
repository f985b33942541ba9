/**
 * An entry the service refused, in the sync panel: "Edit and resend" shows the animal's fields,
 * which load with the first edit, not with the app's start-up (attention-entry-offline.test.ts:
 * should they not load).
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import AttentionEntry from '../../../src/queue/AttentionEntry.svelte';
import type { QueueStore } from '../../../src/queue/queue.svelte';
import { appError, newAnimal } from '../support/test-helpers';

const refused = (): OutboxEntry => ({
  ...newOutboxEntry(newAnimal('Rex', '9', 'available'), 0),
  localId: 'l2',
  state: 'needs_attention',
  lastError: appError('invalid', 'categoryId 9 does not exist'),
});

const outbox = () =>
  ({ editAndResend: vi.fn(async () => null), discard: vi.fn(async () => undefined) }) as unknown as QueueStore;

afterEach(cleanup);

describe('an entry to fix and resend', () => {
  it('shows the animal’s fields, filled in, once staff choose "Edit and resend"', async () => {
    render(AttentionEntry, { entry: refused(), outbox: outbox() });
    await fireEvent.click(screen.getByRole('button', { name: 'Edit & resend Rex' }));
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect((name as HTMLInputElement).value).toBe('Rex');
    expect(screen.getByRole('button', { name: 'Resend' })).toBeTruthy();
  });
});
