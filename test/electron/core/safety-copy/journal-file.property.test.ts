/**
 * The journal file against damage it did not write (issue 31, item 5), as a property over
 * thousands of seeds: random records appended in random batches, then between two runs of the
 * app random damage (bytes that are no UTF-8, NULs, lines cut short or replaced, a torn last line
 * cut at any byte, also inside a character), then a reopen that reads, sets aside and cuts, then
 * more appends. After every reopen, and at the end:
 * - every record whose line was not damaged is read back, in order: nothing appended is lost,
 *   and every record appended after a reopen is there;
 * - each damaged line is reported and set aside byte for byte, the torn tail is reported as its
 *   bytes and cut off, and the file is then exactly its whole lines.
 * On a real file system (a folder of the test's own); only fsync is skipped (the property is
 * about bytes, not about what a power cut keeps, which journal-file.test.ts covers).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeLine, type JournalFs, JournalFile } from '../../../../electron/core/safety-copy/journal-file';

const RUNS = 2000;
const folder = mkdtempSync(join(tmpdir(), 'adoption-journal-property-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The real file system without fsync (of files and folders alike). */
const noSync: JournalFs = {
  ...fs,
  open: (async (path: string, flags?: string, mode?: number) => {
    const handle = await fs.open(path, flags, mode);
    handle.sync = () => Promise.resolve();
    return handle;
  }) as JournalFs['open'],
};

/** One line of the file as the test knows it: its bytes (no newline) and, while intact, its record. */
interface Line {
  bytes: Buffer;
  record: unknown;
  intact: boolean;
  /** The bytes it was appended with (null for a garbage line): intact while it has them. */
  written: Buffer | null;
}

/** Byte runs that are no UTF-8 (a lone continuation, a lone lead, overlong, a surrogate, past U+10FFFF, 0xFF). */
const invalidUtf8: fc.Arbitrary<number[]> = fc.constantFrom<number[]>(
  [0x80],
  [0xbf, 0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xff],
  [0xfe, 0xff],
);
const nuls = fc.integer({ min: 1, max: 12 }).map((n) => new Array<number>(n).fill(0));
/** Any byte but the newline (damage inside a line never splits it; a torn tail has none). */
const notNewline = fc.integer({ min: 0, max: 255 }).filter((byte) => byte !== 0x0a);
const garbage: fc.Arbitrary<number[]> = fc.oneof(
  invalidUtf8,
  nuls,
  fc.array(notNewline, { minLength: 1, maxLength: 8 }),
);

const record = fc.oneof(
  fc.record({ n: fc.nat(), name: fc.string({ unit: 'binary', maxLength: 12 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const batch = fc.array(record, { minLength: 1, maxLength: 4 });

type Damage =
  | { kind: 'insert'; at: number; where: number; bytes: number[] }
  | { kind: 'overwrite'; at: number; where: number; bytes: number[] }
  | { kind: 'shorten'; at: number; keep: number }
  | { kind: 'garbage line'; at: number; bytes: number[] };
const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), where: fc.nat(), bytes: garbage }),
  fc.record({ kind: fc.constant('overwrite' as const), at: fc.nat(), where: fc.nat(), bytes: garbage }),
  fc.record({ kind: fc.constant('shorten' as const), at: fc.nat(), keep: fc.nat() }),
  fc.record({ kind: fc.constant('garbage line' as const), at: fc.nat(), bytes: garbage }),
);

/** What a crash leaves after the last newline: part of a line cut at any byte, garbage, NULs. */
type Tail = { kind: 'cut'; record: unknown; keep: number; then: number[] } | { kind: 'bytes'; bytes: number[] };
const tail: fc.Arbitrary<Tail | null> = fc.option(
  fc.oneof(
    fc.record({
      kind: fc.constant('cut' as const),
      record,
      keep: fc.nat(),
      then: fc.oneof(fc.constant<number[]>([]), garbage),
    }),
    fc.record({ kind: fc.constant('bytes' as const), bytes: garbage }),
  ),
  { freq: 2 },
);

const round = fc.record({
  damages: fc.array(damage, { maxLength: 3 }),
  tail,
  batches: fc.array(batch, { maxLength: 2 }),
});

/** Applies one damage to the lines (the index and offsets are taken modulo what is there). */
function applyDamage(lines: Line[], hit: Damage): void {
  if (hit.kind === 'garbage line') {
    lines.splice(hit.at % (lines.length + 1), 0, {
      bytes: Buffer.from(hit.bytes),
      record: undefined,
      intact: false,
      written: null,
    });
    return;
  }
  if (lines.length === 0) return;
  const line = lines[hit.at % lines.length]!;
  const before = line.bytes;
  if (hit.kind === 'insert') {
    const where = hit.where % (before.length + 1);
    line.bytes = Buffer.concat([before.subarray(0, where), Buffer.from(hit.bytes), before.subarray(where)]);
  } else if (hit.kind === 'overwrite') {
    const where = hit.where % before.length;
    line.bytes = Buffer.concat([
      before.subarray(0, where),
      Buffer.from(hit.bytes),
      before.subarray(Math.min(before.length, where + hit.bytes.length)),
    ]);
  } else {
    line.bytes = before.subarray(0, hit.keep % before.length);
  }
  // Damage that leaves the line its own bytes is no damage, also when it took several changes (CI,
  // seed -1958408605: bytes inserted at its end, then the line shortened back to its length).
  line.intact = line.written !== null && line.bytes.equals(line.written);
}

function tailBytes(torn: Tail | null): Buffer {
  if (!torn) return Buffer.alloc(0);
  if (torn.kind === 'bytes') return Buffer.from(torn.bytes);
  const whole = Buffer.from(encodeLine(torn.record));
  // cut before the newline, at any byte (also inside a character of several bytes)
  return Buffer.concat([whole.subarray(0, torn.keep % whole.length), Buffer.from(torn.then)]);
}

const fileOf = (lines: Line[]): Buffer => Buffer.concat(lines.flatMap((line) => [line.bytes, Buffer.from('\n')]));
/** Bytes compared as hex: exact, and a failure shows where. */
const hex = (bytes: Buffer): string => bytes.toString('hex');
const readBack = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

let runs = 0;

describe('the journal file, with random damage between runs (property)', () => {
  it(`reads back every record not damaged and every record appended after a reopen (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(batch, fc.array(round, { minLength: 1, maxLength: 3 }), async (first, rounds) => {
        runs += 1;
        const path = join(folder, `run-${runs}.jsonl`);
        const lines: Line[] = [];
        const appendBatch = async (file: JournalFile, records: unknown[]) => {
          await file.append(records);
          for (const value of records) {
            const bytes = Buffer.from(encodeLine(value).slice(0, -1));
            lines.push({ bytes, record: readBack(value), intact: true, written: bytes });
          }
        };
        try {
          await appendBatch(new JournalFile(path, noSync), first);
          let setAside = Buffer.alloc(0);
          for (const { damages, tail: torn, batches } of rounds) {
            // between two runs of the app: the disk or a hand edit damages lines, a crash tears the last
            for (const hit of damages) applyDamage(lines, hit);
            const tornBytes = tailBytes(torn);
            writeFileSync(path, Buffer.concat([fileOf(lines), tornBytes]));

            const file = new JournalFile(path, noSync);
            const read = await file.read();
            const damaged = lines.filter((line) => !line.intact);
            expect(read.records).toEqual(lines.filter((line) => line.intact).map((line) => line.record));
            expect(read.damaged.map((line) => hex(line.bytes))).toEqual(damaged.map((line) => hex(line.bytes)));
            expect(read.tornTail && hex(read.tornTail)).toBe(tornBytes.length > 0 ? hex(tornBytes) : null);
            expect(read.wholeBytes).toBe(fileOf(lines).length);
            expect(hex(readFileSync(path))).toBe(hex(fileOf(lines)));
            setAside = Buffer.concat([setAside, fileOf(damaged)]);
            if (damaged.length > 0) expect(hex(readFileSync(file.setAsidePath))).toBe(hex(setAside));

            for (const records of batches) await appendBatch(file, records);
          }
          const last = await new JournalFile(path, noSync).read();
          expect(last.records).toEqual(lines.filter((line) => line.intact).map((line) => line.record));
          expect(last.tornTail).toBeNull();
        } finally {
          rmSync(path, { force: true });
          rmSync(`${path}.set-aside`, { force: true });
        }
      }),
      {
        numRuns: RUNS,
        examples: [
          // found by CI (seed -1958408605): bytes inserted at a line's end, then the line shortened back to
          // its own bytes; the test counted it damaged, the journal rightly read it back
          [
            [''],
            [
              {
                damages: [
                  { kind: 'insert', at: 0, where: 1829557179, bytes: [192, 175] },
                  { kind: 'shorten', at: 0, keep: 1298805583 },
                ],
                tail: null,
                batches: [],
              },
              { damages: [], tail: null, batches: [] },
            ],
          ],
        ],
      },
    );
    expect(runs).toBeGreaterThanOrEqual(RUNS);
  }, 300_000);
});
