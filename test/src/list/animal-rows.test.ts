import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AnimalRows from '../../../src/list/AnimalRows.svelte';
import QueuedRows from '../../../src/list/QueuedRows.svelte';
import type { CachedAnimal } from '../../../src/storage/db';
import { newOutboxEntry, type OutboxEntry } from '../../../src/storage/outbox-records';

const row = (id: string, name: string, status?: 'available' | 'pending' | 'sold'): CachedAnimal => ({
  id,
  animal: { id, name, categoryId: '9007199254740993', ...(status ? { status } : {}) },
  confirmedAt: 0,
});

/** happy-dom lays nothing out: report a 460 px viewport and 46 px rows, as a browser would. */
class SizedResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    const height = target.classList.contains('animal-rows__viewport') ? 460 : 46;
    const entry = { target, contentRect: { width: 800, height } } as unknown as ResizeObserverEntry;
    queueMicrotask(() => this.callback([entry], this as unknown as ResizeObserver));
  }
  unobserve() {}
  disconnect() {}
}

describe('AnimalRows', () => {
  beforeEach(() => {
    vi.stubGlobal('ResizeObserver', SizedResizeObserver);
    window.ResizeObserver = SizedResizeObserver as unknown as typeof ResizeObserver;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('renders name, category id, a status chip and the exact id, each linking to the detail', async () => {
    render(AnimalRows, {
      rows: [row('9223372036854775807', 'Rex', 'available'), row('2', 'Mia', 'sold'), row('3', 'Tom')],
      label: 'Animals',
    });
    const links = await screen.findAllByTestId('animal-row');
    expect(links.length).toBeGreaterThan(0);
    const first = links[0]!;
    expect(first.getAttribute('href')).toBe('#/animals/9223372036854775807');
    expect(first.textContent).toContain('Rex');
    expect(first.textContent).toContain('9007199254740993');
    expect(first.textContent).toContain('9223372036854775807');
    expect(first.querySelector('.chip--available')?.textContent).toBe('available');
    expect(screen.getByText('sold').className).toContain('chip--sold');
    expect(screen.getByText('no status').className).toContain('chip--unknown');
  });

  it('shows a long id whole in the tooltip of its one-line cell', async () => {
    render(AnimalRows, { rows: [row('9223372036854775807', 'Rex', 'available')], label: 'Animals' });
    const [first] = await screen.findAllByTestId('animal-row');
    expect(first!.querySelector('[title="ID 9223372036854775807"]')?.textContent).toContain('9223372036854775807');
    expect(first!.querySelector('[title="Category ID 9007199254740993"]')).not.toBeNull();
  });

  it('never breaks on rows that repeat an id: each id is one row, the last one wins', async () => {
    render(AnimalRows, {
      rows: [row('1', 'Rex'), row('2', 'Mia'), row('1', 'Rex (newer)')],
      label: 'Animals',
    });
    const links = await screen.findAllByTestId('animal-row');
    expect(links.map((link) => link.dataset.id)).toEqual(['1', '2']);
    expect(links[0]!.textContent).toContain('Rex (newer)');
    expect(screen.getByTestId('animal-rows').dataset.count).toBe('2');
  });

  it('renders only a window of rows for 10,000 animals', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => row(String(i + 1), `Animal ${i + 1}`, 'available'));
    render(AnimalRows, { rows, label: 'Animals' });
    expect(screen.getByTestId('animal-rows').dataset.count).toBe('10000');
    expect((await screen.findAllByTestId('animal-row')).length).toBeLessThan(60);
  });
});

describe('QueuedRows', () => {
  afterEach(cleanup);

  it('marks queued creations "waiting to send"', () => {
    const entry: OutboxEntry = { ...newOutboxEntry({ name: 'Pip', categoryId: '4' }, 0), localId: 'l1' };
    render(QueuedRows, { entries: [entry] });
    const queued = screen.getByTestId('queued-row');
    expect(queued.textContent).toContain('Pip');
    expect(queued.textContent).toContain('waiting to send');
    cleanup();

    // An entry given twice (a stale read racing a fresh one) is one row, not a broken screen.
    render(QueuedRows, { entries: [entry, { ...entry, state: 'sending' }] });
    expect(screen.getAllByTestId('queued-row')).toHaveLength(1);
    expect(screen.getByTestId('queued-row').textContent).toContain('sending…');
  });

  it('marks an entry waiting for an earlier send of it to settle at the service "checking…"', () => {
    const entry: OutboxEntry = {
      ...newOutboxEntry({ name: 'Rex', categoryId: '2' }, 0),
      localId: 'l1',
      doubtSince: 0,
      nextAttemptAt: 60_000,
      lastError: { code: 'settling', message: 'An earlier send may still be stored.', notSent: true },
    };
    render(QueuedRows, { entries: [entry] });
    const row = screen.getByTestId('queued-row');
    expect(row.textContent).toContain('checking…');
    expect(row.textContent).not.toContain('waiting to send');
  });
});
