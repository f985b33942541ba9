/**
 * Where an installed app takes the Production and Staging addresses from: the first of these
 * that holds settings is used, whole.
 *
 * 1. The operating system's policy store (policies.ts): Windows Group Policy (registry), macOS
 *    managed preferences, Linux `/etc/adoption-desk/policies/`. Windows and macOS are read by
 *    electron/main with `@vscode/policy-watcher` and handed in as `readPolicyStore`.
 * 2. The machine-wide `profiles.json` of earlier versions, only where it passes the same checks:
 *    it and its folder belong to the administrators and no one else may change them. A standard
 *    user can create `%ProgramData%\Adoption Desk\` and plant a file there, or make it a junction
 *    to a folder of theirs; such a file is refused with a sentence saying why, and never read (on
 *    Windows a folder or file that is a reparse point is refused before its owner is looked at:
 *    windows-ownership.ts).
 * 3. The `profiles.json` packed with the app (resources).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { posix, win32 } from 'node:path';
import { errorMessage } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import type { BuiltInSource } from '../profiles';
import {
  anyAddressPolicySet,
  LINUX_POLICY_FOLDER,
  policyStoreName,
  type PolicyValues,
  settingsFromPolicies,
  updatesFromPolicies,
} from './policies';
import { readPolicyFolder } from './policy-folder';
import { type PosixOwnership, readIfAdministrators, ROOT_ONLY } from './posix-ownership';
import { readWindowsAcl, type WindowsAcl, windowsAclProblem, windowsPowerShell } from './windows-ownership';

export interface OrganisationSettingsOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The `profiles.json` packed with the app. */
  packagedFile: string;
  /** Windows and macOS: the values in the policy store (electron/main/policy-store.ts). */
  readPolicyStore?: () => Promise<PolicyValues>;
  /** Linux's policy folder (tests use their own). */
  linuxPolicyFolder?: string;
  /** The machine-wide `profiles.json` of earlier versions (tests use their own). */
  machineFile?: string;
  /** Who may own machine-wide files on Linux and macOS (root; tests add their own uid). */
  posix?: PosixOwnership;
  /** Windows: the owner and access rules of a path (tests give recorded ones). */
  windowsAcl?: (path: string) => Promise<WindowsAcl>;
  /** Windows: reads the machine file once its checks passed. */
  readFile?: (path: string) => Promise<string>;
}

/** The machine-wide `profiles.json` of earlier versions on `platform`. */
export function machineSettingsFile(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'win32') return win32.join(env.ProgramData || 'C:\\ProgramData', 'Adoption Desk', 'profiles.json');
  if (platform === 'darwin') return posix.join('/Library/Application Support/Adoption Desk', 'profiles.json');
  return '/etc/adoption-desk/profiles.json';
}

type MachineRead = { text: string } | { missing: true } | { refused: string };

async function readMachineFile(options: OrganisationSettingsOptions, path: string): Promise<MachineRead> {
  if (options.platform !== 'win32') {
    const read = await readIfAdministrators(path, options.posix ?? ROOT_ONLY);
    if (read.ok) return { text: read.text };
    return 'refused' in read ? { refused: read.refused } : { missing: true };
  }
  if (!existsSync(path)) return { missing: true };
  const aclOf = options.windowsAcl ?? ((target: string) => readWindowsAcl(target, windowsPowerShell()));
  try {
    const problem =
      windowsAclProblem(win32.dirname(path), await aclOf(win32.dirname(path)), 'folder') ??
      windowsAclProblem(path, await aclOf(path), 'file');
    if (problem) return { refused: problem };
  } catch (error) {
    return { refused: t('coreProfiles.machineOwnerUnchecked', { detail: errorMessage(error) }) };
  }
  return { text: await (options.readFile ?? ((target: string) => readFile(target, 'utf8')))(path) };
}

async function readPolicies(
  options: OrganisationSettingsOptions,
): Promise<{ values: PolicyValues; problems: string[] }> {
  if (options.platform === 'linux')
    return readPolicyFolder(options.linuxPolicyFolder ?? LINUX_POLICY_FOLDER, options.posix ?? ROOT_ONLY);
  if (!options.readPolicyStore) return { values: {}, problems: [] };
  try {
    return { values: await options.readPolicyStore(), problems: [] };
  } catch (error) {
    return {
      values: {},
      problems: [
        t('coreProfiles.policiesUnreadable', { store: policyStoreName(options.platform), detail: errorMessage(error) }),
      ],
    };
  }
}

/** The source of the built-in addresses, with sentences about anything refused on the way. */
export async function organisationSettings(options: OrganisationSettingsOptions): Promise<BuiltInSource> {
  const policies = await readPolicies(options);
  const problems = [...policies.problems];
  const policyUpdates = updatesFromPolicies(policies.values);
  const updates = Object.keys(policyUpdates).length > 0 ? { updates: policyUpdates } : {};
  if (anyAddressPolicySet(policies.values)) {
    return {
      settings: settingsFromPolicies(policies.values),
      name: t('coreProfiles.sourcePolicies', { store: policyStoreName(options.platform) }),
      problems,
      ...updates,
    };
  }
  const machineFile = options.machineFile ?? machineSettingsFile(options.platform, options.env);
  const machine = await readMachineFile(options, machineFile).catch((error: unknown): MachineRead => ({
    refused: t('coreProfiles.machineUnreadable', { detail: errorMessage(error) }),
  }));
  if ('text' in machine)
    return {
      text: machine.text,
      name: t('coreProfiles.sourceMachineFile', { file: machineFile }),
      problems,
      ...updates,
    };
  if ('refused' in machine)
    problems.push(t('coreProfiles.machineFileRefused', { file: machineFile, reason: machine.refused }));
  return { file: options.packagedFile, name: t('coreProfiles.sourcePackaged'), problems, ...updates };
}
