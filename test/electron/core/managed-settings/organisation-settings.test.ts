/**
 * Where the installed app takes Production and Staging from (issue 22): the OS policy store, then
 * a machine-wide `profiles.json` only an administrator could have written, then the packaged file.
 * Real files and folders with real owners and modes (as root, a file is given to `nobody` with
 * chown; as another user, that user's own file is the foreign one), read back through the
 * profiles the app shows.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAC_POLICY_DOMAIN,
  machineSettingsFile,
  organisationSettings,
  type OrganisationSettingsOptions,
} from '../../../../electron/core/managed-settings';
import { ProfileRegistry } from '../../../../electron/core/profiles';
import type { WindowsAcl } from '../../../../electron/core/managed-settings/windows-ownership';
import { onlyOn } from '../../../support/platform';

const ROOT = resolve(import.meta.dirname, '../../../..');
const PACKAGED = join(ROOT, 'resources', 'profiles.json');
const uid = process.getuid?.() ?? 0;
const NOBODY = 65534;
/** The checks of posix-ownership.ts on real files; Windows has no POSIX owner or mode (uid 0, 0666 for all). */
const posixIt = it.skipIf(onlyOn(['linux', 'darwin'], 'POSIX owners and modes of real files (Windows: 0666, uid 0)'));
const ADDRESSES = { version: 1, production: { baseUrl: 'https://adopt.example.org/v1' }, staging: { baseUrl: null } };

/** Makes `path` belong to someone else than root (and than the test's own trusted uid). */
function giveAway(path: string): { trustedUids: number[] } {
  if (uid === 0) {
    chownSync(path, NOBODY, NOBODY);
    return { trustedUids: [0] };
  }
  // Not root: our own file is then the foreign one, since only root is trusted.
  return { trustedUids: [0] };
}

describe("the organisation's settings", () => {
  let base: string;
  let policies: string;
  let machine: string;
  let dataDir: string;
  const trusted = { trustedUids: [0, uid] };

  beforeEach(() => {
    // its real path: the check names folders by it (macOS's tmpdir /var/folders is /private/var/folders)
    base = realpathSync(mkdtempSync(join(tmpdir(), 'adoption-managed-')));
    chmodSync(base, 0o755);
    policies = join(base, 'policies');
    machine = join(base, 'machine');
    dataDir = join(base, 'data');
    for (const folder of [policies, machine, dataDir]) mkdirSync(folder, { mode: 0o755 });
    chmodSync(policies, 0o755);
    chmodSync(machine, 0o755);
  });

  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const options = (extra: Partial<OrganisationSettingsOptions> = {}): OrganisationSettingsOptions => ({
    platform: 'linux',
    env: {},
    packagedFile: PACKAGED,
    linuxPolicyFolder: policies,
    machineFile: join(machine, 'profiles.json'),
    posix: trusted,
    ...extra,
  });

  /** What staff see: the built-in profiles and the notice on Keys and profiles. */
  async function shown(extra: Partial<OrganisationSettingsOptions> = {}) {
    const store = await ProfileRegistry.open({ dataDir, builtIns: await organisationSettings(options(extra)) });
    const list = store.list();
    const [production, staging] = list.profiles;
    return { production, staging, notice: list.notice ?? '' };
  }

  function writeFile(path: string, value: unknown, mode = 0o644): void {
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    chmodSync(path, mode);
  }

  posixIt('takes the addresses from the Linux policy folder, locked for staff', async () => {
    writeFile(join(policies, '10-adoption.json'), { ProductionAddress: 'https://adopt.example.org/v1' });
    writeFile(join(machine, 'profiles.json'), { ...ADDRESSES, staging: { baseUrl: 'https://old.example.org/v1' } });
    const { production, staging, notice } = await shown();
    expect(production).toMatchObject({
      name: 'Production',
      baseUrl: 'https://adopt.example.org/v1',
      addressLocked: true,
    });
    // The policies decide both: Staging is not taken from the older file beside them.
    expect(staging).toMatchObject({ name: 'Staging', baseUrl: null });
    expect(notice).toBe('');
  });

  posixIt('reads every *.json of the folder in name order; the first value of a policy stays', async () => {
    writeFile(join(policies, '20-b.json'), { ProductionAddress: 'https://second.example.org/v1' });
    writeFile(join(policies, '10-a.json'), { StagingAddress: 'https://staging.example.org/v1' });
    writeFile(join(policies, '30-c.json'), { ProductionAddress: 'https://third.example.org/v1' });
    writeFile(join(policies, 'notes.txt'), 'not a policy');
    const { production, staging, notice } = await shown();
    expect(production?.baseUrl).toBe('https://second.example.org/v1');
    expect(staging?.baseUrl).toBe('https://staging.example.org/v1');
    expect(notice).toContain(`ProductionAddress is set again in ${join(policies, '30-c.json')}`);
  });

  posixIt('refuses a policy file others may change, and says so', async () => {
    writeFile(join(policies, 'adoption.json'), { ProductionAddress: 'https://planted.example.net/v1' }, 0o666);
    const { production, notice } = await shown();
    expect(production?.baseUrl).toBeNull();
    expect(notice).toContain(`The policy file ${join(policies, 'adoption.json')} is not used`);
    expect(notice).toContain('may be changed by users other than root (mode 0666)');
  });

  posixIt('refuses a policy file that does not belong to root', async () => {
    const file = join(policies, 'adoption.json');
    writeFile(file, { ProductionAddress: 'https://planted.example.net/v1' });
    const posix = giveAway(file);
    const { production, notice } = await shown({ posix });
    expect(production?.baseUrl).toBeNull();
    expect(notice).toMatch(/is not used: .* belongs to user \d+, not to root/);
  });

  posixIt('refuses the whole folder when a folder above it may be changed by others', async () => {
    writeFile(join(policies, 'adoption.json'), { ProductionAddress: 'https://adopt.example.org/v1' });
    chmodSync(base, 0o777);
    const { production, notice } = await shown();
    expect(production?.baseUrl).toBeNull();
    expect(notice).toContain(`The policy folder is not used: ${base} may be changed by users other than root`);
  });

  posixIt('names what it ignores: an unknown setting, a value that is not text, a file that is not JSON', async () => {
    writeFile(join(policies, 'a.json'), { ProductionAddress: 'https://adopt.example.org/v1', UpdateChannel: 'beta' });
    writeFile(join(policies, 'b.json'), { StagingAddress: 42 });
    writeFile(join(policies, 'c.json'), '{ "ProductionAddress": ');
    const { production, staging, notice } = await shown();
    expect(production?.baseUrl).toBe('https://adopt.example.org/v1');
    expect(staging?.baseUrl).toBeNull();
    expect(notice).toContain('sets "UpdateChannel", which this version does not know; it is ignored');
    expect(notice).toContain('sets StagingAddress to something other than text; it is ignored');
    expect(notice).toContain(`The policy file ${join(policies, 'c.json')} is not valid JSON and is not used`);
  });

  posixIt('checks a policy address like any other: plain http to another computer is refused', async () => {
    writeFile(join(policies, 'a.json'), { ProductionAddress: 'http://adopt.example.org/v1' });
    const { production, notice } = await shown();
    expect(production?.baseUrl).toBeNull();
    expect(notice).toContain("Your organisation's policies (");
    expect(notice).toContain('the Production address must use https://');
  });

  posixIt(
    'keeps reading the machine-wide profiles.json of earlier versions where only root could have written it',
    async () => {
      writeFile(join(machine, 'profiles.json'), ADDRESSES);
      const { production, notice } = await shown();
      expect(production).toMatchObject({ baseUrl: 'https://adopt.example.org/v1', addressLocked: true });
      expect(notice).toBe('');
    },
  );

  // The defect of issue 22: on main any profiles.json found in the machine-wide folder was used.
  posixIt('does not use a machine-wide profiles.json a standard user could have planted, and says why', async () => {
    const file = join(machine, 'profiles.json');
    writeFile(file, { ...ADDRESSES, production: { baseUrl: 'https://planted.example.net/v1' } });
    const posix = giveAway(file);
    const planted = await shown({ posix });
    expect(planted.production?.baseUrl).toBeNull();
    expect(planted.notice).toContain(`The settings file ${file} is not used:`);
    expect(planted.notice).toMatch(/belongs to user \d+, not to root/);
    expect(planted.notice).toContain('taken from the settings packed with the app instead');
    expect(planted.notice).not.toContain('planted.example.net');
  });

  posixIt('does not use a machine-wide file in a folder anyone may write to', async () => {
    writeFile(join(machine, 'profiles.json'), ADDRESSES);
    chmodSync(machine, 0o777);
    const { production, notice } = await shown();
    expect(production?.baseUrl).toBeNull();
    expect(notice).toContain(`${machine} may be changed by users other than root (mode 0777)`);
  });

  it('falls back to the packaged file when there is nothing else, without a word', async () => {
    const { production, staging, notice } = await shown();
    const packaged = JSON.parse(readFileSync(PACKAGED, 'utf8')) as typeof ADDRESSES;
    expect(production?.baseUrl).toBe(packaged.production.baseUrl);
    expect(staging?.baseUrl).toBe(packaged.staging.baseUrl);
    expect(notice).toBe('');
  });

  describe('on Windows and macOS', () => {
    it('takes the policy store’s values (read by electron/main) first', async () => {
      for (const platform of ['win32', 'darwin'] as const) {
        const { production, staging } = await shown({
          platform,
          readPolicyStore: async () => ({ StagingAddress: 'https://staging.example.org/v1' }),
          machineFile: join(machine, 'none.json'),
        });
        expect(production?.baseUrl).toBeNull();
        expect(staging).toMatchObject({ baseUrl: 'https://staging.example.org/v1', addressLocked: true });
      }
    });

    posixIt('says when the policy store could not be read, and goes on to the next source', async () => {
      writeFile(join(machine, 'profiles.json'), ADDRESSES);
      const { production, notice } = await shown({
        platform: 'darwin',
        readPolicyStore: async () => {
          throw new Error('no answer within 10 s');
        },
      });
      expect(production?.baseUrl).toBe('https://adopt.example.org/v1');
      expect(notice).toContain(
        `Your organisation's policies (managed preferences, ${MAC_POLICY_DOMAIN}) could not be read: no answer within 10 s.`,
      );
    });

    const SYSTEM_ONLY: WindowsAcl = {
      attributes: 0x10,
      owner: 'S-1-5-32-544',
      rules: [
        { sid: 'S-1-5-18', rights: 2032127, allow: true, inheritOnly: false },
        { sid: 'S-1-5-32-544', rights: 2032127, allow: true, inheritOnly: false },
        { sid: 'S-1-5-32-545', rights: 1179817, allow: true, inheritOnly: false },
      ],
    };
    const PLANTED: WindowsAcl = {
      attributes: 0x20,
      owner: 'S-1-5-21-1004336348-1177238915-682003330-1001',
      rules: [
        { sid: 'S-1-5-21-1004336348-1177238915-682003330-1001', rights: 2032127, allow: true, inheritOnly: false },
      ],
    };

    it('reads %ProgramData%\\Adoption Desk\\profiles.json only when the administrators own it and its folder', async () => {
      const file = join(machine, 'profiles.json');
      writeFile(file, ADDRESSES);
      const checked: string[] = [];
      const accepted = await shown({
        platform: 'win32',
        windowsAcl: async (path) => (checked.push(path), SYSTEM_ONLY),
      });
      expect(checked).toHaveLength(2);
      expect(accepted.production?.baseUrl).toBe('https://adopt.example.org/v1');

      const refused = await shown({
        platform: 'win32',
        windowsAcl: async (path) => (path === file ? PLANTED : SYSTEM_ONLY),
      });
      expect(refused.production?.baseUrl).toBeNull();
      expect(refused.notice).toContain(`${file} belongs to ${PLANTED.owner}, not to the administrators`);
    });

    it('refuses %ProgramData%\\Adoption Desk when it is a junction, before its owner is looked at, and never reads the file (issue 31, item 8)', async () => {
      const file = join(machine, 'profiles.json');
      writeFile(file, ADDRESSES);
      const read: string[] = [];
      const refused = await shown({
        platform: 'win32',
        // Attributes as Get-Item reports a junction: Directory, ReparsePoint (0x10 | 0x400)
        windowsAcl: async (path) => (path === file ? SYSTEM_ONLY : { ...SYSTEM_ONLY, attributes: 0x10 | 0x400 }),
        readFile: async (path) => (read.push(path), JSON.stringify(ADDRESSES)),
      });
      expect(refused.production?.baseUrl).toBeNull();
      expect(refused.notice).toContain(`${machine} is a junction or symbolic link (a reparse point) to another place`);
      expect(read).toEqual([]);
    });

    it('names the usual machine-wide file on each system', () => {
      expect(machineSettingsFile('linux', {})).toBe('/etc/adoption-desk/profiles.json');
      expect(machineSettingsFile('darwin', {})).toBe('/Library/Application Support/Adoption Desk/profiles.json');
      expect(machineSettingsFile('win32', {})).toBe('C:\\ProgramData\\Adoption Desk\\profiles.json');
      expect(machineSettingsFile('win32', { ProgramData: 'E:\\PD' })).toBe('E:\\PD\\Adoption Desk\\profiles.json');
    });

    it('reads macOS managed preferences for the bundle id the app is packaged with', () => {
      const builder = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
      expect(builder).toMatch(new RegExp(`^appId: ${MAC_POLICY_DOMAIN.replaceAll('.', '\\.')}$`, 'm'));
    });
  });
});
