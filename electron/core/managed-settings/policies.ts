/**
 * The settings an organisation's IT may manage, and where each operating system keeps them. The
 * same names everywhere: registry values on Windows, keys of a managed preferences profile on
 * macOS, JSON members on Linux (docs/it-guide.md, "Production and Staging addresses", has an example
 * of each).
 */
import type { BuiltInSettings } from '../profiles';

/** The policies, in the form `@vscode/policy-watcher` takes them (index.d.ts: `Policies`). */
export const POLICY_DEFINITIONS = {
  /** The Production profile's service address, e.g. `https://adopt.example.org/v1`. */
  ProductionAddress: { type: 'string' },
  /** The Staging profile's service address. */
  StagingAddress: { type: 'string' },
  /** "off" switches the app's own updates off; "on" (or not set) leaves them on. */
  UpdateMode: { type: 'string' },
  /** Where the app looks for its updates (electron-updater's generic feed), e.g. `https://updates.example.org/adoption-desk/`. */
  UpdateFeedUrl: { type: 'string' },
} as const;

export type PolicyName = keyof typeof POLICY_DEFINITIONS;
export const POLICY_NAMES = Object.keys(POLICY_DEFINITIONS) as PolicyName[];
export const isPolicyName = (name: string): name is PolicyName => Object.hasOwn(POLICY_DEFINITIONS, name);

/** The values set; a policy that is not set is absent. */
export type PolicyValues = Partial<Record<PolicyName, string>>;

/** Windows: read under HKEY_LOCAL_MACHINE, then HKEY_CURRENT_USER (both writable by administrators only). */
export const WINDOWS_POLICY_KEY = 'SOFTWARE\\Policies\\Adoption Desk';
/** macOS: the managed (forced) preferences of the app's bundle id (electron-builder.yml `appId`). */
export const MAC_POLICY_DOMAIN = 'org.adoption-desk.app';
/** Linux: every `*.json` in this folder, which must belong to root and be writable by root only. */
export const LINUX_POLICY_FOLDER = '/etc/adoption-desk/policies';

/** Where the policies of `platform` are kept, as IT would name it. */
export function policyStoreName(platform: NodeJS.Platform): string {
  if (platform === 'win32') return `Group Policy, HKLM\\${WINDOWS_POLICY_KEY}`;
  if (platform === 'darwin') return `managed preferences, ${MAC_POLICY_DOMAIN}`;
  return LINUX_POLICY_FOLDER;
}

/** True when at least one address is set by policy: the policies then decide both addresses. */
export const anyAddressPolicySet = (values: PolicyValues): boolean =>
  values.ProductionAddress !== undefined || values.StagingAddress !== undefined;

/**
 * The update settings the policies set (core/updates reads them), over whatever source the
 * addresses come from; empty when they set none. A mode other than "on" or "off" is passed on as
 * it is, and refused there with a sentence.
 */
export function updatesFromPolicies(values: PolicyValues): Record<string, unknown> {
  const updates: Record<string, unknown> = {};
  const mode = values.UpdateMode?.trim().toLowerCase();
  if (mode === 'off') updates.enabled = false;
  else if (mode === 'on') updates.enabled = true;
  else if (mode) updates.enabled = values.UpdateMode;
  if (values.UpdateFeedUrl?.trim()) updates.url = values.UpdateFeedUrl.trim();
  return updates;
}

/** The built-in settings the policies amount to: an address not set (or set empty) is "not configured". */
export function settingsFromPolicies(values: PolicyValues): BuiltInSettings {
  const address = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);
  return {
    version: 1,
    production: { baseUrl: address(values.ProductionAddress) },
    staging: { baseUrl: address(values.StagingAddress) },
  };
}
