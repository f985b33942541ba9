/**
 * What staff read of this computer's storage in Spanish (issue 23): the notice of animals
 * restored (which follows the language shown), the set-aside records and their Copy, the
 * browser's answer on keeping the data, the outbox's refusals, and the duplicate question.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { useLanguage } from '../../../src/shared/i18n';
import { describeMatches, duplicateQuestion } from '../../../src/storage/duplicates';
import { Outbox } from '../../../src/storage/outbox';
import { TwoCopies } from '../../../src/two-copies/two-copies.svelte';
import { describeRecord, SetAsideStore } from '../../../src/storage/set-aside.svelte';
import SetAsideRecords from '../../../src/storage/SetAsideRecords.svelte';
import { PERSISTENCE_TEXT, StorageHealthStore } from '../../../src/two-copies/storage-health.svelte';
import { FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

const closes: Array<() => void> = [];

function setup() {
  const fresh = freshDb();
  closes.push(fresh.close);
  const clock = new FakeClock();
  const copy = new MemorySafetyCopy();
  return { ...fresh, clock, copy, outbox: new Outbox(fresh.db, clock, copy) };
}

describe('storage, in Spanish', () => {
  beforeEach(async () => {
    await useLanguage('es');
  });
  afterEach(async () => {
    cleanup();
    for (const close of closes.splice(0)) close();
    await useLanguage('en');
  });

  it('says which animals came back, and the notice follows the language shown', async () => {
    const { db, copy, outbox, clock, profileId } = setup();
    for (const name of ['Oliva', 'Albahaca', 'Salvia', 'Menta', 'Tomillo', 'Romero', 'Laurel']) {
      await outbox.enqueue(newAnimal(name));
    }
    await db.outbox.clear();
    const storage = new TwoCopies(
      profileId,
      db,
      copy,
      new StorageHealthStore(),
      { unusable: vi.fn(), restored: vi.fn() },
      clock,
    );
    try {
      await storage.start();
      expect(storage.notice).toEqual({
        tone: 'warn',
        text:
          'El almacenamiento del navegador de este equipo perdió animales de este perfil (se borró o se dañó). ' +
          '7 animales restaurados desde la copia de seguridad de este equipo ' +
          '(Oliva, Albahaca, Salvia, Menta, Tomillo y 2 más). Se envían como de costumbre.',
      });
      await useLanguage('en');
      expect(storage.notice?.text).toContain(
        "7 animals restored from this computer's safety copy (Oliva, Albahaca, Salvia, Menta, Tomillo and 2 more).",
      );
    } finally {
      storage.stop();
    }
  });

  it('shows a set-aside record, why, and what Copy did', async () => {
    const { db } = setup();
    await db.setAside.put({
      id: 'outbox:l1',
      table: 'outbox',
      raw: { animal: { name: 'Pip', categoryId: 4 } },
      reason: 'row.state: invalid',
      at: new Date(2026, 10, 24, 9, 5).getTime(),
    });
    const written: string[] = [];
    const setAside = new SetAsideStore(db, { writeText: async (text) => void written.push(text) });
    setAside.start();
    try {
      render(SetAsideRecords, { setAside });
      const record = await screen.findByRole('listitem', { name: 'Registro apartado outbox:l1' });
      expect(screen.getByRole('heading').textContent).toBe('Apartados: registros que no se pudieron leer');
      expect(record.querySelector('p')?.textContent).toBe('Pip, categoría 4 · apartado a las 09:05');
      expect(record.querySelector('strong bdi')?.textContent).toBe('Pip, categoría 4');
      expect(record.querySelector('summary')?.textContent).toBe('Por qué no se pudo leer');
      expect(screen.getByRole('region', { name: 'Datos de outbox:l1' })).toBeTruthy();
      await fireEvent.click(screen.getByRole('button', { name: 'Copiar datos' }));
      await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copiado al portapapeles.'));
      expect(written).toHaveLength(1);
    } finally {
      setAside.stop();
    }
    const failing = new SetAsideStore(db, {
      writeText: () => Promise.reject(new Error('denied')),
    });
    const [row] = await db.setAside.toArray();
    await failing.copy(row!);
    expect(failing.copied['outbox:l1']).toBe('No se pudo usar el portapapeles: selecciona el texto y cópialo.');
    expect(describeRecord({ ...row!, raw: null })).toBe('Una entrada cuyo animal no se puede leer');
  });

  it('says whether the browser keeps the data', () => {
    expect(PERSISTENCE_TEXT.kept).toBe('se conserva (el navegador no lo borrará)');
    expect(PERSISTENCE_TEXT.unknown).toBe('no se sabe (este navegador no lo indica)');
  });

  it('refuses staff changes the entry cannot take, in Spanish', async () => {
    const { outbox } = setup();
    const entry = await outbox.enqueue(newAnimal('Pip'));
    await expect(outbox.sendMine(entry.localId)).rejects.toThrow(
      'Esta entrada ya no espera una revisión (puede que otra ventana ya haya respondido).',
    );
    await expect(outbox.edit(entry.localId, newAnimal('Pipa'))).rejects.toThrow(
      'Solo se puede editar una entrada que requiere atención (queued).',
    );
  });

  it('asks about a duplicate in Spanish', () => {
    const labels = new CategoryLabels([{ id: '1', label: 'Gatos' }]);
    const matches = [
      { kind: 'known', id: '41' },
      { kind: 'outbox', state: 'queued' },
      { kind: 'file', row: 1234 },
      { kind: 'file', row: 7 },
    ] as const;
    expect(describeMatches(matches)).toBe('ID 41 / en espera de envío / filas 1234, 7 de este archivo');
    expect(duplicateQuestion(newAnimal('Michi', '1'), matches.slice(0, 2), labels)).toBe(
      'Michi, Gatos ya está guardado en este equipo (ID 41 / en espera de envío). ¿Quieres añadir otro?',
    );
  });
});
