/**
 * What staff were told: every animal a window said was saved (the Add form's submit answered
 * true, an import said its count), with the entry's ids as the window kept them; and what staff
 * did since that changes what the app owes them (a profile removed after the warning, a doubt
 * answered). The checks hold the app to this, never to what it did inside.
 */
import { parseIdempotencyKey } from '../../service/idempotency';
import type { Creation, SimService } from '../world/service';

export interface Told {
  localId: string;
  idempotencyKey: string;
  name: string;
  categoryId: string;
  computer: string;
  profileId: string;
  /** Virtual time (monotonic ms) when the window said so. */
  at: number;
  how: 'form' | 'import';
  /** Staff removed its profile (warned of its unsent animals): the app owes nothing more. */
  removedWithProfile: boolean;
  /** Staff said which service animal it is ("it is this one"). */
  confirmedId: string | null;
  /** Staff discarded it after a check, knowing it was on the service. */
  discardedOnService: boolean;
  /** Staff chose "send mine" while it was on the service but not among the candidates shown. */
  staffSentAgain: boolean;
}

export class Ledger {
  readonly told = new Map<string, Told>();

  tell(entry: Omit<Told, 'removedWithProfile' | 'confirmedId' | 'discardedOnService' | 'staffSentAgain'>): void {
    if (this.told.has(entry.localId)) return;
    this.told.set(entry.localId, {
      ...entry,
      removedWithProfile: false,
      confirmedId: null,
      discardedOnService: false,
      staffSentAgain: false,
    });
  }

  /** The profile is gone with its queue (staff confirmed the warning). */
  removeProfile(profileId: string): void {
    for (const told of this.told.values()) if (told.profileId === profileId) told.removedWithProfile = true;
  }

  /** What the app still owes: every animal told saved whose profile staff kept. */
  owed(): Told[] {
    return [...this.told.values()].filter((told) => !told.removedWithProfile);
  }
}

/** The service's creations by the `Idempotency-Key` they carried (its sf-string quotes taken off). */
export function creationsByKey(service: SimService): Map<string, Creation[]> {
  const byKey = new Map<string, Creation[]>();
  for (const creation of service.creations) {
    const key = creation.key === null ? '(none)' : (parseIdempotencyKey(creation.key) ?? creation.key);
    const list = byKey.get(key) ?? [];
    list.push(creation);
    byKey.set(key, list);
  }
  return byKey;
}
