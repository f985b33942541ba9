/** The event toolkit's stores: the duplicate question of the add form, the import, categories, export, print. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddAnimalFormStore } from '../../../src/add/add-animal-form.svelte';
import { CategoriesStore } from '../../../src/categories/categories.svelte';
import type { NewAnimal } from '../../../src/shared/records/animal';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { FileExportStore } from '../../../src/shell/file-export.svelte';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { Outbox } from '../../../src/storage/outbox';
import { ImportStore } from '../../../src/toolkit/import.svelte';
import { PrintStore } from '../../../src/toolkit/print.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import { animal, entriesOf, freshDb, MemorySafetyCopy } from '../support/test-helpers';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function db() {
  const fresh = freshDb();
  cleanups.push(fresh.close);
  return fresh.db;
}

const csvFile = (text: string, name = 'animals.csv') => new File([text], name, { type: 'text/csv' });

describe('the add form with the duplicate question', () => {
  function form(question: string | null) {
    const enqueue = vi.fn(async (_pet: NewAnimal) => ({ ok: true as const }));
    const ask = vi.fn(async () => question);
    const store = new AddAnimalFormStore(enqueue, undefined, {
      duplicateQuestion: ask,
      categoryIdOf: (text) => new CategoryLabels([{ id: '2', label: 'Cats' }]).idOf(text),
    });
    return { store, enqueue, ask };
  }

  it('asks before saving, saves nothing, and adds the same animal on the second submit', async () => {
    const { store, enqueue, ask } = form('Kitten, Cats is already saved on this device (ID 41). Add another?');
    store.name = 'Kitten';
    store.categoryId = 'cats';
    expect(await store.submit()).toBe(false);
    expect(store.duplicate).toBe('Kitten, Cats is already saved on this device (ID 41). Add another?');
    expect(enqueue).not.toHaveBeenCalled();
    expect(await store.submit()).toBe(true);
    expect(enqueue).toHaveBeenCalledWith({ name: 'Kitten', categoryId: '2' });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(store.duplicate).toBeNull();
  });

  it('asks again once the animal changes; "Don\'t add" clears the form and saves nothing', async () => {
    const { store, enqueue, ask } = form('Already saved. Add another?');
    store.name = 'Kitten';
    store.categoryId = '2';
    await store.submit();
    store.name = 'Kitty';
    store.revalidate();
    expect(store.duplicate).toBeNull();
    await store.submit();
    expect(ask).toHaveBeenCalledTimes(2);
    store.dontAdd();
    expect([store.name, store.categoryId, store.duplicate]).toEqual(['', '', null]);
    expect(enqueue).not.toHaveBeenCalled();
  });

  it('adds at once when nothing matches', async () => {
    const { store, enqueue } = form(null);
    store.name = 'Rex';
    store.categoryId = '1';
    expect(await store.submit()).toBe(true);
    expect(enqueue).toHaveBeenCalledOnce();
  });
});

describe('ImportStore', () => {
  it('previews, then queues the valid rows in file order and says how many only once they are on disk', async () => {
    const database = db();
    await new AnimalCache(database).saveAnimal(animal('41', 'Kitten', '2'), 1);
    const outbox = new Outbox(database, undefined, new MemorySafetyCopy());
    const store = new ImportStore(
      database,
      () => new CategoryLabels([{ id: '2', label: 'Cats' }]),
      async (animals) => ({ ok: true, count: (await outbox.enqueueMany(animals)).length }),
    );
    await store.choose(csvFile('name,category\nRex,1\nkitten,Cats\n,2\nMia,cats\n'));
    expect(store.state).toBe('preview');
    expect(store.invalid.map((row) => row.row)).toEqual([4]);
    expect(store.flagged.map((row) => row.row)).toEqual([3]);
    expect(store.toQueue.map((row) => row.row)).toEqual([2, 5]);
    await store.confirm();
    expect((await entriesOf(outbox)).map((entry) => entry.animal)).toEqual([
      { name: 'Rex', categoryId: '1' },
      { name: 'Mia', categoryId: '2' },
    ]);
    expect(store.message).toBe(
      '2 animals from animals.csv are saved on this device and waiting to send. 2 rows were not added (listed below).',
    );
    await store.confirm();
    expect(await entriesOf(outbox)).toHaveLength(2);
  });

  it('refuses a bad file with one message and queues nothing; a failed write says nothing was added', async () => {
    const database = db();
    const enqueueMany = vi.fn(async () => ({ ok: false as const, message: 'the disk is full' }));
    const store = new ImportStore(database, () => CategoryLabels.empty, enqueueMany);
    await store.choose(csvFile('Animal,Type\nRex,1\n'));
    expect(store.problem).toContain('The file has no name or category column');
    expect(store.problem).toContain('Nothing was imported.');
    await store.choose(csvFile('name,category\nRex,1\n'));
    await store.confirm();
    expect(store.failure).toBe('Nothing was added: the disk is full');
    expect(store.state).toBe('preview');
  });
});

describe('CategoriesStore', () => {
  it("shows a file's changes before using it, and a bad file changes nothing", async () => {
    const database = db();
    const store = new CategoriesStore(database);
    store.start();
    cleanups.push(() => store.stop());
    expect(await store.save('1', 'Dogs')).toBeNull();
    await vi.waitFor(() => expect(store.labels.labelOf('1')).toBe('Dogs'));
    await store.choose(new File(['not json'], 'x.json'));
    expect(store.fileProblem).toBe('The file is not a category file: it is not JSON text. Nothing was changed.');
    const file = JSON.stringify({
      kind: 'adoption-desk.categories',
      version: 1,
      categories: [{ id: '2', label: 'Cats' }],
    });
    await store.choose(new File([file], 'shelter.json'));
    expect(store.pending?.changes).toMatchObject({ added: [{ id: '2' }], removed: [{ id: '1' }] });
    expect(store.labels.labelOf('1')).toBe('Dogs');
    await store.usePending();
    await vi.waitFor(() => expect(store.categories).toEqual([{ id: '2', label: 'Cats' }]));
    expect(store.notice).toBe('Category names from shelter.json are in use: 1 added, 0 renamed, 1 removed.');
  });
});

describe('FileExportStore and PrintStore', () => {
  it('saves through the desktop channel in Electron and reports a cancelled dialog', async () => {
    const api = fakeAdoptionApi();
    const saveFile = vi.fn(async () => ok({ saved: false, fileName: null }));
    Object.defineProperty(api, 'desktop', { value: { saveFile, printPage: vi.fn() } });
    const store = new FileExportStore(api);
    expect(await store.save('animals.csv', 'a,b', '2 animals')).toBe(false);
    expect(saveFile).toHaveBeenCalledWith({ suggestedName: 'animals.csv', text: 'a,b' });
    expect(store.message).toBe('Not exported: the save was cancelled.');
  });

  it('downloads in a browser through a hidden link', async () => {
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const store = new FileExportStore(fakeAdoptionApi());
    expect(await store.save('animals.csv', 'a,b', '2 animals')).toBe(true);
    expect(clicked).toEqual(['animals.csv']);
    expect(store.message).toBe("2 animals exported as animals.csv (in your browser's downloads).");
    click.mockRestore();
  });

  it('prints the available saved animals by name; window.print in a browser, the desktop channel in Electron', async () => {
    const database = db();
    const cache = new AnimalCache(database);
    for (const saved of [
      animal('3', 'Zed', '1', 'available'),
      animal('4', 'Amy', '1', 'available'),
      animal('5', 'Bo', '1', 'sold'),
    ]) {
      await cache.saveAnimal(saved, 1);
    }
    const win = { print: vi.fn() };
    const store = new PrintStore(fakeAdoptionApi(), cache, win);
    await store.loadAvailable();
    expect(store.job?.animals.map((a) => a.name)).toEqual(['Amy', 'Zed']);
    await store.print();
    expect(win.print).toHaveBeenCalledOnce();

    const api = fakeAdoptionApi();
    Object.defineProperty(api, 'desktop', {
      value: { printPage: vi.fn(async () => ok({ printed: false, reason: 'Print job canceled' })) },
    });
    const desktop = new PrintStore(api, cache, win);
    await desktop.print();
    expect(desktop.notice).toBe('Not printed: Print job canceled.');
    expect(win.print).toHaveBeenCalledOnce();
  });
});
