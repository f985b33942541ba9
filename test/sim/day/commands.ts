/**
 * The steps of a day as fast-check model-based commands: what staff do (add one animal with the
 * form, import a spreadsheet, open, close and reload windows, answer the app's questions, remove
 * their profile and make it again) and what befalls them (the service's moods, the app crashing
 * at once or in the middle of a disk write, the power going, the browser host dying, the site's
 * data cleared, the disk full, the clock jumping), each followed by a pause and the checks.
 * fast-check draws the list, and shrinks a failing one to the fewest steps that still fail.
 */
import fc from 'fast-check';
import type { NewAnimal } from '../../../src/shared/records/animal';
import type { ServiceMood } from '../world/service';
import type { Day } from './day';

type Model = Record<string, never>;
type Command = fc.AsyncCommand<Model, Day>;

const NAMES = ['Bella', 'Max', 'Luna', 'Charlie', 'Milo', 'Daisy', 'Rocky', 'Coco', 'Nala', 'Simba', 'Oscar', 'Pepper'];

/** An animal as staff enter it: common names (so that animals of several laptops look alike), three categories. */
export const animalArb: fc.Arbitrary<NewAnimal> = fc
  .record({
    name: fc.constantFrom(...NAMES),
    suffix: fc.option(fc.integer({ min: 2, max: 60 }), { freq: 2 }),
    categoryId: fc.constantFrom('1', '2', '3'),
    status: fc.option(fc.constantFrom('available' as const, 'pending' as const, 'sold' as const), { freq: 2 }),
  })
  .map(({ name, suffix, categoryId, status }) => {
    const animal: NewAnimal = { name: suffix === null ? name : `${name} ${suffix}`, categoryId };
    return status === null ? animal : { ...animal, status };
  });

const device = fc.nat({ max: 3 });
const window = fc.nat({ max: 2 });
/** What staff take before their next step (the world runs meanwhile). */
const pause = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 3_000 }), weight: 3 },
  fc.integer({ min: 3_000, max: 90_000 }),
);

export const moodArb: fc.Arbitrary<ServiceMood> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'up' } as const), weight: 4 },
  fc.record({ kind: fc.constant('slow' as const), ms: fc.integer({ min: 2_000, max: 45_000 }) }),
  fc.constant({ kind: 'down' } as const),
  fc.record({
    kind: fc.constant('refusing' as const),
    status: fc.constantFrom(429 as const, 503 as const),
    headers: fc.boolean(),
  }),
  fc.constant({ kind: 'failing' } as const),
  fc.constant({ kind: 'losing' } as const),
);

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const animalText = (a: NewAnimal) => `${a.name}/${a.categoryId}${a.status ? `/${a.status}` : ''}`;

/** One step: its action, then the pause, then the checks. */
abstract class Step implements Command {
  constructor(readonly then: number) {}
  check(): boolean {
    return true;
  }
  abstract act(day: Day): Promise<void> | void;
  abstract describe(): string;
  async run(_model: Model, day: Day): Promise<void> {
    await this.act(day);
    if (this.then > 0) await day.wait(this.then);
    await day.afterStep();
  }
  toString(): string {
    return `${this.describe()}${this.then > 0 ? ` +${seconds(this.then)}` : ''}`;
  }
}

class Add extends Step {
  constructor(
    readonly d: number,
    readonly w: number,
    readonly animal: NewAnimal,
    readonly anyway: boolean,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.add(this.d, this.w, this.animal, this.anyway);
  }
  describe() {
    return `add(d${this.d + 1}w${this.w}, ${animalText(this.animal)}${this.anyway ? '' : ', not if it looks saved'})`;
  }
}

class Import extends Step {
  constructor(
    readonly d: number,
    readonly w: number,
    readonly animals: NewAnimal[],
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.importRows(this.d, this.w, this.animals);
  }
  describe() {
    return `import(d${this.d + 1}w${this.w}, ${this.animals.length} animals)`;
  }
}

class Wait extends Step {
  act() {}
  describe() {
    return 'wait';
  }
}

class Mood extends Step {
  constructor(
    readonly mood: ServiceMood,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    day.mood(this.mood);
  }
  describe() {
    const m = this.mood;
    return `service ${m.kind}${m.kind === 'slow' ? ` ${seconds(m.ms)}` : m.kind === 'refusing' ? ` ${m.status}${m.headers ? ' with headers' : ' bare'}` : ''}`;
  }
}

class OpenWindow extends Step {
  constructor(
    readonly d: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.openWindow(this.d);
  }
  describe() {
    return `open a window(d${this.d + 1})`;
  }
}

class CloseWindow extends Step {
  constructor(
    readonly d: number,
    readonly w: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    day.closeWindow(this.d, this.w);
  }
  describe() {
    return `close(d${this.d + 1}w${this.w})`;
  }
}

class ReloadWindow extends Step {
  constructor(
    readonly d: number,
    readonly w: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.reloadWindow(this.d, this.w);
  }
  describe() {
    return `reload(d${this.d + 1}w${this.w})`;
  }
}

class Crash extends Step {
  constructor(
    readonly d: number,
    readonly kind: 'app' | 'power' | 'host',
    readonly downMs: number,
    readonly windows: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.crash(this.d, this.kind, this.downMs, this.windows);
  }
  describe() {
    return `${this.kind === 'power' ? 'power cut' : this.kind === 'host' ? 'host dies' : 'app crashes'}(d${this.d + 1}, back after ${seconds(this.downMs)} with ${this.windows} window(s))`;
  }
}

class ArmCrash extends Step {
  constructor(
    readonly d: number,
    readonly afterWrites: number,
    readonly kind: 'kill' | 'power',
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    day.armCrash(this.d, this.afterWrites, this.kind);
  }
  describe() {
    return `${this.kind === 'power' ? 'power cut' : 'crash'} during write #${this.afterWrites}(d${this.d + 1})`;
  }
}

class ClearSite extends Step {
  constructor(
    readonly d: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    day.clearSite(this.d);
  }
  describe() {
    return `clear site data(d${this.d + 1})`;
  }
}

class DiskFull extends Step {
  constructor(
    readonly d: number,
    readonly full: boolean,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    day.diskFull(this.d, this.full);
  }
  describe() {
    return `disk ${this.full ? 'full' : 'freed'}(d${this.d + 1})`;
  }
}

class Jump extends Step {
  constructor(
    readonly ms: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    day.jump(this.ms);
  }
  describe() {
    return `clocks jump ${this.ms > 0 ? '+' : ''}${seconds(this.ms)}`;
  }
}

class RemakeProfile extends Step {
  constructor(
    readonly d: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.remakeProfile(this.d);
  }
  describe() {
    return `remove and remake the profile(d${this.d + 1})`;
  }
}

class AnswerChecks extends Step {
  constructor(
    readonly d: number,
    then: number,
  ) {
    super(then);
  }
  act(day: Day) {
    return day.answerChecks(this.d);
  }
  describe() {
    return `staff answer the checks(d${this.d + 1})`;
  }
}

/** The steps fast-check draws from, by how often they happen in a day. */
export const stepArbs: Array<fc.Arbitrary<Command>> = [
  ...Array.from({ length: 8 }, () =>
    fc
      .tuple(device, window, animalArb, fc.boolean(), pause)
      .map(([d, w, a, anyway, then]) => new Add(d, w, a, anyway, then)),
  ),
  fc
    .tuple(device, window, fc.array(animalArb, { minLength: 2, maxLength: 20 }), pause)
    .map(([d, w, animals, then]) => new Import(d, w, animals, then)),
  fc.integer({ min: 1_000, max: 15 * 60_000 }).map((then) => new Wait(then)),
  fc.integer({ min: 1_000, max: 15 * 60_000 }).map((then) => new Wait(then)),
  fc.tuple(moodArb, pause).map(([mood, then]) => new Mood(mood, then)),
  fc.tuple(moodArb, pause).map(([mood, then]) => new Mood(mood, then)),
  fc.tuple(device, pause).map(([d, then]) => new OpenWindow(d, then)),
  fc.tuple(device, window, pause).map(([d, w, then]) => new CloseWindow(d, w, then)),
  fc.tuple(device, window, pause).map(([d, w, then]) => new ReloadWindow(d, w, then)),
  fc
    .tuple(
      device,
      fc.constantFrom('app' as const, 'power' as const, 'host' as const),
      fc.integer({ min: 1_000, max: 180_000 }),
      fc.integer({ min: 1, max: 3 }),
      pause,
    )
    .map(([d, kind, down, windows, then]) => new Crash(d, kind, down, windows, then)),
  fc
    .tuple(device, fc.integer({ min: 1, max: 12 }), fc.constantFrom('kill' as const, 'power' as const), pause)
    .map(([d, after, kind, then]) => new ArmCrash(d, after, kind, then)),
  fc.tuple(device, pause).map(([d, then]) => new ClearSite(d, then)),
  fc.tuple(device, fc.boolean(), pause).map(([d, full, then]) => new DiskFull(d, full, then)),
  fc.tuple(fc.integer({ min: -2 * 3600_000, max: 2 * 3600_000 }), pause).map(([ms, then]) => new Jump(ms, then)),
  fc.tuple(device, pause).map(([d, then]) => new RemakeProfile(d, then)),
  fc.tuple(device, pause).map(([d, then]) => new AnswerChecks(d, then)),
  fc.tuple(device, pause).map(([d, then]) => new AnswerChecks(d, then)),
];
