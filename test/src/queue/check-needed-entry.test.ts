import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';
import CheckNeededEntry from '../../../src/queue/CheckNeededEntry.svelte';
import type { QueueStore } from '../../../src/queue/queue.svelte';
import { animal, newAnimal } from '../support/test-helpers';

function entry(check: OutboxEntry['check']): OutboxEntry {
  return {
    ...newOutboxEntry(newAnimal('Kitten', '2'), 0),
    localId: 'l1',
    state: 'check_needed',
    attempts: 1,
    doubtSince: 0,
    check,
  };
}

function fakeOutbox() {
  return {
    confirmMatch: vi.fn(async () => null),
    sendMine: vi.fn(async () => 'This entry is no longer waiting for a check.'),
    discard: vi.fn(async () => undefined),
  };
}

describe('CheckNeededEntry', () => {
  afterEach(cleanup);

  it('shows ours and the service’s animal with its id, and passes staff’s answer on', async () => {
    const outbox = fakeOutbox();
    const check = { candidates: [animal('9007199254740993', 'Kitten', '2', 'available')], complete: true, at: 0 };
    render(CheckNeededEntry, { entry: entry(check), outbox: outbox as unknown as QueueStore });
    const ours = screen.getByRole('region', { name: 'Entered on this device' });
    expect(ours.textContent).toMatch(/Kitten · category 2 · service decides/);
    const theirs = screen.getByRole('region', { name: 'On the service, #9007199254740993' });
    expect(theirs.textContent).toMatch(/Kitten · category 2 · available/);
    expect(screen.getByText(/another device with the same key/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Discard/ })).toBeNull();

    await fireEvent.click(within(theirs).getByRole('button', { name: 'It is this one: Kitten #9007199254740993' }));
    expect(outbox.confirmMatch).toHaveBeenCalledWith('l1', '9007199254740993');
    await fireEvent.click(screen.getByRole('button', { name: 'Send mine: Kitten' }));
    expect(outbox.sendMine).toHaveBeenCalledWith('l1');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/no longer waiting/));
  });

  it('with nothing to compare (a list was full), offers to send or to discard', async () => {
    const outbox = fakeOutbox();
    render(CheckNeededEntry, {
      entry: entry({ candidates: [], complete: false, at: 0 }),
      outbox: outbox as unknown as QueueStore,
    });
    expect(screen.getByText(/more than 100 animals of this kind/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /It is this one/ })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Discard mine (it is on the service)' }));
    expect(outbox.discard).toHaveBeenCalledWith('l1');
  });
});
