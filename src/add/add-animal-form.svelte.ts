/**
 * The Add form: fields, inline validation by the shared contract, and submit to the outbox.
 * What it says of the animal added last follows that animal's outbox entry, so the message
 * never outlives its truth: waiting to send, then sent with its id, or set aside for staff.
 */
import { t } from '../language';
import { type AnimalStatus, NewAnimal } from '../shared/records/animal';
import { canonicalInt64 } from '../shared/records/int64';
import { matchKey } from '../shared/records/text-match';
import type { EntryLookup } from '../storage';

export type FieldErrors = { name?: string; categoryId?: string; status?: string };

/** The longest name the contract takes (NewAnimal). */
const NAME_MAX = 200;

function fieldMessage(field: string, value: string): string {
  if (field === 'name') return value.trim() === '' ? t('add.nameRequired') : t('add.nameTooLong', { max: NAME_MAX });
  if (field === 'categoryId') {
    if (value.trim() === '') return t('add.categoryRequired');
    if (!/^-?\d+$/.test(value.trim())) return t('add.categoryNotWhole');
    return t('add.categoryTooLarge');
  }
  return t('add.statusInvalid');
}

/** Validates the form's text; returns the payload or the message of each bad field (in the language shown). */
export function validateNewAnimal(
  name: string,
  categoryId: string,
  status: AnimalStatus | '',
): { ok: true; animal: NewAnimal } | { ok: false; errors: FieldErrors } {
  const parsed = NewAnimal.safeParse({
    name,
    categoryId: canonicalInt64(categoryId),
    ...(status === '' ? {} : { status }),
  });
  if (parsed.success) return { ok: true, animal: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field !== 'name' && field !== 'categoryId' && field !== 'status') continue;
    errors[field] ??= fieldMessage(field, field === 'name' ? name : field === 'categoryId' ? categoryId : status);
  }
  return { ok: false, errors };
}

/** What the form asks of the profile besides saving (all optional; the Edit & resend form uses none). */
export interface AddFormHooks {
  /** The id of a known category name typed in the Category field ("Dogs" → "1"), else null. */
  categoryIdOf?: (text: string) => string | null;
  /** The question to ask when the animal looks already saved on this device, else null. */
  duplicateQuestion?: (animal: NewAnimal) => Promise<string | null>;
  /** The outbox entry of an added animal (QueueStore.lookup); without it the message stays "waiting". */
  entryOf?: (localId: string) => EntryLookup;
}

export type EnqueueResult = { ok: true; localId?: string } | { ok: false; message: string };

export type AddedMessage = { text: string; tone: 'ok' | 'warn' };

/** What the form says of an animal it added, from its outbox entry now; null once there is nothing to say. */
export function addedMessage(name: string, found: EntryLookup): AddedMessage | null {
  if (found.kind === 'gone') return null;
  const waiting: AddedMessage = { text: t('add.waiting', { name }), tone: 'ok' };
  if (found.kind === 'pending') return waiting;
  const { entry } = found;
  switch (entry.state) {
    case 'queued':
    case 'sending':
      return waiting;
    case 'sent': {
      const id = entry.serverId ?? null;
      return { text: id === null ? t('add.sentNoId', { name }) : t('add.sent', { name, id }), tone: 'ok' };
    }
    case 'needs_attention':
      return { text: t('add.needsAttention', { name }), tone: 'warn' };
    case 'check_needed':
      return { text: t('add.checkNeeded', { name }), tone: 'warn' };
  }
}

const animalKey = (animal: NewAnimal) => `${animal.categoryId}\u0000${matchKey(animal.name)}`;

export class AddAnimalFormStore {
  name = $state('');
  categoryId = $state('');
  status = $state<AnimalStatus | ''>('');
  /** The text last checked and found wrong (the messages are said from it, in the language shown). */
  #checked = $state<{ name: string; categoryId: string; status: AnimalStatus | '' } | null>(null);
  /** The message of each bad field, once staff submitted; cleared as they fix them. */
  readonly errors: FieldErrors = $derived.by(() => {
    const checked = this.#checked;
    if (!checked) return {};
    const result = validateNewAnimal(checked.name, checked.categoryId, checked.status);
    return result.ok ? {} : result.errors;
  });
  submitting = $state(false);
  /** The animal added last, followed through the outbox. */
  added = $state<{ name: string; localId: string | null } | null>(null);
  /** What the last submit did and what became of it, e.g. "Rex was sent (ID 42)." */
  readonly message: AddedMessage | null = $derived.by(() => {
    const added = this.added;
    if (!added) return null;
    const found = added.localId && this.hooks.entryOf ? this.hooks.entryOf(added.localId) : null;
    return addedMessage(added.name, found ?? { kind: 'pending' });
  });
  // Kept as how to say it, so it follows the language shown.
  #failure = $state<(() => string) | null>(null);
  /** Counts resets, so the view can move focus back to Name. */
  resets = $state(0);
  /** Asked before saving an animal that looks already saved: staff add it anyway or not. */
  duplicate = $state<string | null>(null);
  #touched = false;
  /** The animal the duplicate question is about: submitting that same animal again adds it. */
  #askedKey: string | null = null;

  constructor(
    private readonly enqueue: (animal: NewAnimal) => Promise<EnqueueResult>,
    initial?: NewAnimal,
    private readonly hooks: AddFormHooks = {},
  ) {
    if (initial) {
      this.name = initial.name;
      this.categoryId = initial.categoryId;
      this.status = initial.status ?? '';
    }
  }

  /** Why the last submit could not save the animal ("Not saved: …"). */
  get failure(): string | null {
    return this.#failure?.() ?? null;
  }

  /** Re-validates after the first submit attempt, so messages clear as staff fix them. */
  revalidate(): void {
    if (!this.#touched) return;
    const result = this.#validate();
    // Another animal now: the question was about the one before.
    if (this.#askedKey !== null && (!result.ok || animalKey(result.animal) !== this.#askedKey)) this.dontAdd(false);
  }

  /** Staff answered the duplicate question with "Don't add": the question goes (and the fields, if `clear`). */
  dontAdd(clear = true): void {
    this.duplicate = null;
    this.#askedKey = null;
    if (clear) this.#clear();
  }

  /** Checks the fields as they are now; what is wrong is shown (`errors`). */
  #validate(): ReturnType<typeof validateNewAnimal> {
    const checked = { name: this.name, categoryId: this.#categoryText(), status: this.status };
    const result = validateNewAnimal(checked.name, checked.categoryId, checked.status);
    this.#checked = result.ok ? null : checked;
    return result;
  }

  /** A known category name typed in the field stands for its id. */
  #categoryText(): string {
    return this.hooks.categoryIdOf?.(this.categoryId) ?? this.categoryId;
  }

  async submit(): Promise<boolean> {
    if (this.submitting) return false;
    this.#touched = true;
    this.#failure = null;
    const result = this.#validate();
    if (!result.ok) return false;
    this.submitting = true;
    const key = animalKey(result.animal);
    if (this.hooks.duplicateQuestion && this.#askedKey !== key) {
      // Never blocks, never silent: the question is asked once; the same animal submitted again is added.
      const question = await this.hooks.duplicateQuestion(result.animal).catch(() => null);
      if (question) {
        this.submitting = false;
        this.duplicate = question;
        this.#askedKey = key;
        return false;
      }
    }
    const saved = await this.enqueue(result.animal);
    this.submitting = false;
    if (!saved.ok) {
      const reason = saved.message;
      this.#failure = () => t('add.notSaved', { reason });
      return false;
    }
    this.added = { name: result.animal.name, localId: saved.localId ?? null };
    this.duplicate = null;
    this.#askedKey = null;
    this.#clear();
    return true;
  }

  #clear(): void {
    this.name = '';
    this.categoryId = '';
    this.status = '';
    this.#checked = null;
    this.#touched = false;
    this.resets += 1;
  }
}
