/**
 * Linux's policy store: every `*.json` file in `/etc/adoption-desk/policies/`, read in name order
 * (as Chromium reads `/etc/opt/chrome/policies/managed/`). Each holds an object of policy values,
 * `{ "ProductionAddress": "https://adopt.example.org/v1" }`. The folder, every folder above it and
 * each file must belong to root and be writable by root only (posix-ownership.ts); what fails that
 * is not read, and a sentence says why.
 */
import { join } from 'node:path';
import { isPolicyName, type PolicyValues } from './policies';
import { listIfAdministrators, type PosixOwnership, readIfAdministrators, ROOT_ONLY } from './posix-ownership';

export interface PolicyRead {
  values: PolicyValues;
  /** Plain-language sentences for staff (and IT) about what was refused or ignored. */
  problems: string[];
}

export async function readPolicyFolder(folder: string, ownership: PosixOwnership = ROOT_ONLY): Promise<PolicyRead> {
  const values: PolicyValues = {};
  const problems: string[] = [];
  const listed = await listIfAdministrators(folder, ownership);
  if (!listed.ok) {
    if ('refused' in listed) problems.push(`The policy folder is not used: ${listed.refused}.`);
    return { values, problems };
  }
  for (const name of listed.names.filter((entry) => entry.endsWith('.json'))) {
    const path = join(folder, name);
    const read = await readIfAdministrators(path, ownership);
    if (!read.ok) {
      if ('refused' in read) problems.push(`The policy file ${path} is not used: ${read.refused}.`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text) as unknown;
    } catch {
      problems.push(`The policy file ${path} is not valid JSON and is not used.`);
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push(`The policy file ${path} does not hold an object of settings and is not used.`);
      continue;
    }
    for (const [key, value] of Object.entries(parsed)) {
      if (!isPolicyName(key)) {
        problems.push(
          `The policy file ${path} sets "${key.slice(0, 60)}", which this version does not know; it is ignored.`,
        );
      } else if (typeof value !== 'string') {
        problems.push(`The policy file ${path} sets ${key} to something other than text; it is ignored.`);
      } else if (values[key] !== undefined && values[key] !== value) {
        problems.push(`${key} is set again in ${path}; the earlier file's value is kept.`);
      } else {
        values[key] = value;
      }
    }
  }
  return { values, problems };
}
