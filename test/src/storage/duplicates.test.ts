import { afterEach, describe, expect, it } from 'vitest';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { describeMatches, DuplicateIndex, duplicateQuestion } from '../../../src/storage/duplicates';
import { Outbox } from '../../../src/storage/outbox';
import { animal, appError, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

const labels = new CategoryLabels([{ id: '2', label: 'Cats' }]);

describe('the duplicate matcher', () => {
  let close = () => {};
  afterEach(() => close());

  it('matches name (trimmed, case and accents aside) and category; never another category', () => {
    const index = DuplicateIndex.of([animal('41', 'Kitten', '2'), animal('42', 'Chloé', '2')], []);
    expect(index.find(newAnimal('  kITTEN ', '2'))).toEqual([{ kind: 'known', id: '41' }]);
    expect(index.find(newAnimal('CHLOE', '2'))).toEqual([{ kind: 'known', id: '42' }]);
    expect(index.find(newAnimal('Kitten', '3'))).toEqual([]);
    expect(index.find(newAnimal('Kittens', '2'))).toEqual([]);
  });

  it('reads the cache and the outbox: waiting, refused and sent entries, each once', async () => {
    const fresh = freshDb();
    close = fresh.close;
    const clock = new FakeClock();
    await new AnimalCache(fresh.db).saveAnimal(animal('41', 'Kitten', '2'), clock.now());
    const outbox = new Outbox(fresh.db, clock, new MemorySafetyCopy());
    const [waiting, refused, sent, sentUncached] = await outbox.enqueueMany([
      newAnimal('kitten', '2'),
      newAnimal('Kitten ', '2'),
      newAnimal('Kitten', '2'),
      newAnimal('Kitten', '2'),
    ]);
    await outbox.markNeedsAttention(refused!.localId, appError('invalid_request'));
    await outbox.markSent(sent!.localId, animal('41', 'Kitten', '2'));
    await fresh.db.outbox.update(sentUncached!.localId, { state: 'sent', serverId: '77' });
    expect(waiting).toBeDefined();

    const matches = (await DuplicateIndex.read(fresh.db)).find(newAnimal('KITTEN', '2'));
    expect(matches).toEqual([
      { kind: 'known', id: '41' },
      { kind: 'outbox', state: 'queued' },
      { kind: 'outbox', state: 'needs_attention' },
      { kind: 'known', id: '77' },
    ]);
    expect(describeMatches(matches)).toBe('ID 41 / ID 77 / waiting to send / not accepted, waiting for an edit');
  });

  it('flags later rows of the same file and says which row', () => {
    const index = DuplicateIndex.of([], []);
    expect(index.find(newAnimal('Rex', '1'))).toEqual([]);
    index.addFileRow(newAnimal('Rex', '1'), 4);
    expect(describeMatches(index.find(newAnimal('rex', '1')))).toBe('row 4 of this file');
  });

  it('asks the add form question in staff words, with the category name when known', () => {
    expect(
      duplicateQuestion(
        newAnimal('Kitten', '2'),
        [
          { kind: 'known', id: '41' },
          { kind: 'outbox', state: 'queued' },
        ],
        labels,
      ),
    ).toBe('Kitten, Cats is already saved on this device (ID 41 / waiting to send). Add another?');
    expect(duplicateQuestion(newAnimal('Rex', '9'), [{ kind: 'outbox', state: 'sending' }], labels)).toBe(
      'Rex, category 9 is already saved on this device (sending). Add another?',
    );
    const many = ['1', '2', '3', '4', '5'].map((id) => ({ kind: 'known' as const, id }));
    expect(describeMatches(many)).toBe('ID 1 / ID 2 / ID 3 / 2 more');
  });
});
