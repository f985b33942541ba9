/**
 * An API key bound to the origin (scheme, host, port) it was saved for: the only origin it
 * is ever sent to. The keychain entry of a profile (account = profile id) holds both, as
 * `{"v":1,"origin":"https://api.example.org","key":"…"}`. An entry in any other form (a bare
 * key, a hand edit) binds to nothing and is treated as no key: it is never sent.
 */
import { z } from 'zod';
import type { SecretStore } from './secret-store';

export interface BoundKey {
  readonly key: string;
  /** `URL.origin` of the address the key was saved for, e.g. `https://api.example.org`. */
  readonly origin: string;
}

const KeyRecord = z.object({ v: z.literal(1), origin: z.string().min(1), key: z.string().min(1) });

/** The origin of a service address (`https://api.example.org/v1` → `https://api.example.org`). */
export function originOf(address: string): string {
  return new URL(address).origin;
}

export function encodeKeyRecord(bound: BoundKey): string {
  return JSON.stringify({ v: 1, origin: bound.origin, key: bound.key });
}

/** The key and its origin, or null when the entry is not a bound key. */
export function decodeKeyRecord(secret: string): BoundKey | null {
  let raw: unknown;
  try {
    raw = JSON.parse(secret);
  } catch {
    return null;
  }
  const parsed = KeyRecord.safeParse(raw);
  return parsed.success ? { key: parsed.data.key, origin: parsed.data.origin } : null;
}

/**
 * Stores `key` for `profileId`, bound to the origin of `address`. For tools and test
 * fixtures that seed the keychain before the app starts (the app itself saves keys through
 * `KeyService.setKey`, which binds them to the profile's address).
 */
export async function storeBoundKey(
  store: SecretStore,
  profileId: string,
  address: string,
  key: string,
): Promise<void> {
  await store.set(profileId, encodeKeyRecord({ key, origin: originOf(address) }));
}
