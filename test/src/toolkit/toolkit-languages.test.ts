/**
 * The event toolkit in English and Spanish: the CSV columns read in either language whatever the
 * language shown and written in the one shown, the statuses as the service has them or as shown,
 * and the sentences of the import, the export, the print view and "Prepare for the event".
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import Papa from 'papaparse';
import type { Component } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Animal } from '../../../src/shared/records/animal';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { type Language, t, useLanguage } from '../../../src/shared/i18n';
import type { AppContext } from '../../../src/shell';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { DuplicateIndex } from '../../../src/storage/duplicates';
import { animalsToCsv } from '../../../src/toolkit/csv-export';
import { decodeCsvBytes, sizeProblem } from '../../../src/toolkit/csv-file';
import { type ImportPreview, previewCsv } from '../../../src/toolkit/csv-import';
import { ImportStore } from '../../../src/toolkit/import.svelte';
import { prepareForEvent, PrepareForEventStore } from '../../../src/toolkit/prepare-for-event.svelte';
import { PrintStore } from '../../../src/toolkit/print.svelte';
import PrintView from '../../../src/toolkit/PrintView.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import { FakeApi, FakeClock, freshDb, newAnimal } from '../support/test-helpers';
import WithApp from './WithApp.svelte';

const labels = new CategoryLabels([
  { id: '1', label: 'Dogs' },
  { id: '2', label: 'Gatos' },
]);

const cleanups: (() => void)[] = [];
afterEach(async () => {
  cleanup();
  cleanups.splice(0).forEach((close) => close());
  await useLanguage('en');
});

function preview(text: string): ImportPreview {
  const result = previewCsv(text, { labels, duplicates: DuplicateIndex.of([], []) });
  if (!result.ok) throw new Error(`expected a preview, got: ${result.message}`);
  return result;
}

function refusal(text: string): string {
  const result = previewCsv(text, { labels, duplicates: DuplicateIndex.of([], []) });
  if (result.ok) throw new Error('expected the file to be refused');
  return result.message;
}

const animals = (result: ImportPreview) => result.rows.map((row) => row.animal);

function rowsOf(csv: string): string[][] {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return Papa.parse<string[]>(csv.slice(1), { header: false, skipEmptyLines: true }).data;
}

describe('CSV import columns, in either language whatever the language shown', () => {
  const headers = [
    'name,category,status',
    'nombre,categoría,estado',
    ' NOMBRE ; Categoria ; ESTADO ',
    'Nombre,CATEGORÍA,Status',
    'Name,Category ID,estado',
    'nombre,id de categoría,estado',
    'nombre,category_id,STATUS',
  ];

  for (const language of ['en', 'es'] as const) {
    it(`reads ${headers.length} headers in English, Spanish or both with ${language} shown`, async () => {
      await useLanguage(language);
      for (const header of headers) {
        const delimiter = header.includes(';') ? ';' : ',';
        const result = preview(`${header}\nRex${delimiter}1${delimiter}available\n`);
        expect(animals(result), header).toEqual([{ name: 'Rex', categoryId: '1', status: 'available' }]);
        expect(result.ignoredColumns, header).toEqual([]);
      }
    });
  }

  it('names the columns in the language shown when the header is wrong', async () => {
    expect(refusal('Animal,Type\nRex,1\n')).toBe(
      'The file has no name or category column (its first row names “Animal”, “Type”). The first row must name the columns: name, category (an ID or a known category name) and, if you like, status.',
    );
    await useLanguage('es');
    expect(refusal('Animal,Tipo\nRex,1\n')).toBe(
      'El archivo no tiene columna nombre o categoría (su primera fila nombra “Animal”, “Tipo”). La primera fila debe nombrar las columnas: nombre, categoría (un ID o un nombre de categoría conocido) y, si quieres, estado.',
    );
    expect(refusal('name\nRex\n')).toContain('El archivo no tiene columna categoría (');
    // The same column named in both languages is named twice.
    expect(refusal('nombre,categoría,Name\nRex,1,x\n')).toContain(
      'El encabezado nombra dos veces la columna nombre. La primera fila debe nombrar',
    );
    expect(refusal('\n\n')).toContain('El archivo no tiene fila de encabezado.');
    expect(refusal('nombre,categoría\n\n')).toBe('El archivo tiene fila de encabezado, pero ningún animal debajo.');
  });
});

describe('CSV import statuses: the service’s values, or as the language shown writes them', () => {
  const file = (...statuses: string[]) =>
    ['nombre,categoría,estado', ...statuses.map((status, i) => `A${i},1,${status}`)].join('\n');

  it('reads disponible, pendiente, vendido (any case) and the service’s values in Spanish', async () => {
    await useLanguage('es');
    expect(t('status.available')).toBe('disponible');
    const result = preview(file('disponible', 'PENDIENTE', 'Vendido', ' available ', 'SOLD', 'pending', ''));
    expect(result.rows.map((row) => row.animal?.status ?? null)).toEqual([
      'available',
      'pending',
      'sold',
      'available',
      'sold',
      'pending',
      null,
    ]);
    expect(result.rows.every((row) => row.problems.length === 0)).toBe(true);
  });

  it('refuses any other status with the same clear message, in the language shown', async () => {
    expect(preview(file('adopted')).rows[0]?.problems).toEqual([
      'Status “adopted” is not available, pending or sold (leave it empty to let the service decide).',
    ]);
    // English shown: a Spanish word is not a status.
    expect(preview(file('disponible')).rows[0]?.problems[0]).toContain('Status “disponible” is not available');
    await useLanguage('es');
    expect(preview(file('Adoptado')).rows[0]?.problems).toEqual([
      'El estado “Adoptado” no es disponible, pendiente ni vendido (déjalo vacío para que lo decida el servicio).',
    ]);
    expect(preview(file('adoptado')).rows[0]?.animal).toBeNull();
  });

  it('says every row problem in Spanish', async () => {
    // A leading tab is named as such (trimStart took it for white space before).
    expect(preview('name,category\n\tTab,1\n').rows[0]?.problems[0]).toMatch(/^Name starts with a tab, so /);
    await useLanguage('es');
    const text = [
      'nombre,categoría',
      ',1',
      'Tom,Perros',
      'Max,99999999999999999999',
      '=HYPERLINK("x"),1',
      '\tTab,1',
      'Bo,1,extra',
      'A'.repeat(201) + ',1',
      'Rex,',
    ].join('\n');
    const problems = preview(text).rows.map((row) => row.problems);
    expect(problems).toEqual([
      ['Falta el nombre.'],
      [
        'La categoría “Perros” no es un nombre de categoría conocido: usa su ID o añade el nombre en Claves y perfiles.',
      ],
      ['El ID de categoría 99999999999999999999 es demasiado grande para un número entero de 64 bits.'],
      [
        'El nombre empieza por “=”, así que una hoja de cálculo lo ejecutaría como una fórmula. Si de verdad es el nombre, empieza la celda con un apóstrofo (\'=HYPERLINK("x")).',
      ],
      [expect.stringContaining('El nombre empieza por un tabulador, así que')],
      [
        'La fila tiene 3 celdas, pero el encabezado tiene 2: ¿hay una coma o un punto y coma en un nombre sin comillas?',
      ],
      ['Nombre: el nombre debe tener como máximo 200 caracteres.'],
      ['Falta la categoría.'],
    ]);
    const many = ['nombre,categoría', ...Array.from({ length: 12_001 }, (_, i) => `A${i},1`)].join('\n');
    expect(refusal(many)).toBe(
      'El archivo tiene 12.001 filas; una importación admite como máximo 5000. Divídelo en archivos más pequeños.',
    );
  });
});

describe('CSV export in the language shown', () => {
  const exported: Animal[] = [
    { id: '9007199254740993', name: 'Rex', categoryId: '1', status: 'available' },
    { id: '9223372036854775807', name: 'Zoë', categoryId: '2', status: 'sold' },
    { id: '3', name: '=Fórmula', categoryId: '7' },
  ];

  it('writes the Spanish column names, in today’s order, with ids and the service’s statuses exact', async () => {
    await useLanguage('es');
    expect(rowsOf(animalsToCsv(exported, labels))).toEqual([
      ['nombre', 'categoría', 'nombre de categoría', 'estado', 'id'],
      ['Rex', '1', 'Dogs', 'available', '9007199254740993'],
      ['Zoë', '2', 'Gatos', 'sold', '9223372036854775807'],
      ["'=Fórmula", '7', '', '', '3'],
    ]);
  });

  const cases: [Language, Language][] = [
    ['es', 'en'],
    ['en', 'es'],
    ['es', 'es'],
  ];
  for (const [written, read] of cases) {
    it(`reads back a file exported in ${written} with ${read} shown`, async () => {
      await useLanguage(written);
      const csv = animalsToCsv(exported, labels);
      await useLanguage(read);
      const decoded = decodeCsvBytes(new TextEncoder().encode(csv));
      if (!decoded.ok) throw new Error(decoded.message);
      const result = preview(decoded.text);
      expect(result.rows.every((row) => row.problems.length === 0)).toBe(true);
      expect(animals(result)).toEqual(exported.map(({ id: _id, ...animal }) => animal));
      expect(result.ignoredColumns).toEqual(written === 'es' ? ['nombre de categoría', 'id'] : ['category name', 'id']);
    });
  }
});

describe('the toolkit’s sentences in Spanish', () => {
  it('says why a file cannot be imported, with numbers as Spanish writes them', async () => {
    await useLanguage('es');
    expect(sizeProblem(0)).toBe('El archivo está vacío.');
    expect(sizeProblem(50 * 1024 * 1024)).toBe(
      'El archivo ocupa 50,0 MB; una importación admite como máximo 2,0 MB (unos 5000 animales). Divídelo en archivos más pequeños.',
    );
    expect(decodeCsvBytes(Uint8Array.from([0xff, 0xfe, 0x6e, 0]))).toEqual({
      ok: false,
      message: expect.stringContaining('“CSV UTF-8 (delimitado por comas)”'),
    });
  });

  it('the import store: a refused file, the count once saved, a failed write', async () => {
    await useLanguage('es');
    const fresh = freshDb();
    cleanups.push(fresh.close);
    const enqueueMany = vi.fn(async (pets: readonly unknown[]) => ({ ok: true as const, count: pets.length }));
    const store = new ImportStore(fresh.db, () => labels, enqueueMany);
    await store.choose(new File(['Animal,Tipo\nRex,1\n'], 'a.csv'));
    expect(store.problem).toMatch(/^El archivo no tiene columna nombre o categoría .* No se importó nada\.$/);
    await store.choose(new File(['nombre,categoría,estado\nRex,1,disponible\n,1,\nMia,gatos,\n'], 'perros.csv'));
    await store.confirm();
    expect(enqueueMany).toHaveBeenCalledWith([
      { name: 'Rex', categoryId: '1', status: 'available' },
      { name: 'Mia', categoryId: '2' },
    ]);
    expect(store.message).toBe(
      '2 animales de perros.csv están guardados en este equipo y en espera de enviarse. 1 fila no se añadió (aparece abajo).',
    );
    const failing = new ImportStore(
      fresh.db,
      () => labels,
      async () => ({ ok: false, message: 'disco lleno' }),
    );
    await failing.choose(new File(['nombre,categoría\nRex,1\n'], 'a.csv'));
    await failing.confirm();
    expect(failing.failure).toBe('No se añadió nada: disco lleno');
  });

  it('the English sentences stay as they were, and follow a change of language', async () => {
    const fresh = freshDb();
    cleanups.push(fresh.close);
    const store = new ImportStore(
      fresh.db,
      () => labels,
      async (pets) => ({ ok: true, count: pets.length }),
    );
    await store.choose(new File(['name,category\nRex,1\n'], 'one.csv'));
    await store.confirm();
    expect(store.message).toBe('1 animal from one.csv is saved on this device and waiting to send.');
    const api = new FakeApi(new FakeClock());
    api.store(newAnimal('Rex', '1', 'available'));
    api.store(newAnimal('Mia', '1', 'sold'));
    const prepare = new PrepareForEventStore(api as never, fresh.profileId, new AnimalCache(fresh.db));
    await prepare.run();
    expect(prepare.message).toBe('Ready: 2 animals are now available offline.');
    await useLanguage('es');
    expect(store.message).toBe('1 animal de one.csv está guardado en este equipo y en espera de enviarse.');
    expect(prepare.message).toBe('Listo: 2 animales ya están disponibles sin conexión.');
  });

  it('"Prepare for the event" and printing say what happened in Spanish', async () => {
    await useLanguage('es');
    const api = new FakeApi(new FakeClock());
    const fresh = freshDb();
    cleanups.push(fresh.close);
    const cache = new AnimalCache(fresh.db);
    api.store(newAnimal('Rex', '1', 'available'));
    const prepare = new PrepareForEventStore(api as never, fresh.profileId, cache);
    await prepare.run();
    expect(prepare.message).toBe('Listo: 1 animal ya está disponible sin conexión.');
    api.failList('timeout', 'Sin respuesta en 15 s.');
    const failed = await prepareForEvent(api, fresh.profileId, cache);
    expect(failed.ok || failed.error.message).toBe('Sin respuesta en 15 s. (1 animal está disponible sin conexión.)');

    const desktopApi = fakeAdoptionApi();
    Object.defineProperty(desktopApi, 'desktop', {
      value: { printPage: vi.fn(async () => ok({ printed: false, reason: null })) },
    });
    const print = new PrintStore(desktopApi, cache, { print: vi.fn() });
    await print.print();
    expect(print.notice).toBe('No se imprimió: se canceló la impresión.');
    await print.loadAvailable();
    expect(print.job).toMatchObject({
      title: 'Animales disponibles',
      source: 'Todos los animales disponibles guardados en este equipo',
    });
  });
});

describe('the print view in Spanish', () => {
  const app = { profiles: { active: { name: 'Refugio Norte' } } } as unknown as AppContext;

  function renderPrint(job: { title: string; source: string; animals: Animal[] }) {
    const fresh = freshDb();
    cleanups.push(fresh.close);
    const print = new PrintStore(fakeAdoptionApi(), new AnimalCache(fresh.db), { print: vi.fn() });
    print.use(job);
    render(WithApp, {
      props: {
        app,
        screen: PrintView as unknown as Component<Record<string, unknown>>,
        screenProps: { session: { profileId: 'p1', print, categories: { labels } } },
      },
    });
  }

  it('has every heading, column header and page head in Spanish, the date as Spanish writes it', async () => {
    await useLanguage('es');
    vi.useFakeTimers({ now: new Date(2026, 10, 24, 14, 5), toFake: ['Date'] });
    try {
      renderPrint({
        title: 'Animales disponibles',
        source: 'Guardado en este equipo',
        animals: [
          { id: '9007199254740993', name: 'Rex', categoryId: '1', status: 'available' },
          { id: '4', name: 'Mía', categoryId: '9' },
        ],
      });
    } finally {
      vi.useRealTimers();
    }
    expect(screen.getByRole('heading', { level: 2 }).textContent?.trim()).toBe('Imprimir: Animales disponibles');
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a la lista' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mostrar todos los animales disponibles' })).toBeTruthy();
    expect(screen.getByText(/^Guardado en este equipo · 2 animales\. Un animal por fila;/)).toBeTruthy();
    const heads = screen.getAllByRole('columnheader').map((th) => th.textContent?.replace(/\s+/g, ' ').trim());
    // Intl's long Spanish date: "24 de noviembre de 2026, 14:05" (or "… a las 14:05", by ICU version).
    expect(heads[0]).toMatch(
      /^Animales disponibles Perfil: Refugio Norte Impreso el 24 de noviembre de 2026,? .*14:05$/,
    );
    expect(heads.slice(1)).toEqual(['Nombre', 'Categoría', 'Estado', 'ID']);
    const rows = screen
      .getAllByTestId('print-row')
      .map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent?.trim()));
    expect(rows).toEqual([
      ['Rex', 'Dogs', 'disponible', '9007199254740993'],
      ['Mía', 'Categoría 9', 'sin indicar', '4'],
    ]);
  });

  it('says there is nothing to print in Spanish; in English as before', async () => {
    renderPrint({ title: 'Animals', source: 'The list', animals: [] });
    expect(screen.getByText('There are no animals to print here.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2 }).textContent?.trim()).toBe('Print: Animals');
    cleanup();
    await useLanguage('es');
    renderPrint({ title: 'Animales', source: 'La lista', animals: [] });
    expect(screen.getByText('Aquí no hay animales que imprimir.')).toBeTruthy();
  });
});
