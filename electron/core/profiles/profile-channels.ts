/**
 * The profiles' channels (`listProfiles`, `saveProfile`, `removeProfile`). What else follows a
 * profile (its key, its client, its safety copy) is told once the profiles file has the change.
 */
import type { Handlers } from '../../../src/shared/app-api/api';
import type { Profile } from '../../../src/shared/records/profile';
import { ok } from '../../../src/shared/app-api/result';
import type { ProfileRegistry } from './profile-registry';

export interface ProfileFollowers {
  /** A profile was saved; `addressBefore` is its address before (null for a new one). */
  saved(profile: Profile, addressBefore: string | null): Promise<void>;
  removed(profileId: string): Promise<void>;
}

export function profileChannels(
  profiles: ProfileRegistry,
  followers: ProfileFollowers,
): Handlers<'listProfiles' | 'saveProfile' | 'removeProfile'> {
  return {
    listProfiles: async () => ok(profiles.list()),
    saveProfile: async (input) => {
      const before = input.id ? (profiles.get(input.id)?.baseUrl ?? null) : null;
      const saved = await profiles.save(input);
      if (saved.ok) await followers.saved(saved.data, before);
      return saved;
    },
    removeProfile: async ({ profileId }) => {
      const removed = await profiles.remove(profileId);
      if (removed.ok) await followers.removed(profileId);
      return removed;
    },
  };
}
