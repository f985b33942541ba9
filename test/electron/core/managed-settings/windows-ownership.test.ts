/**
 * The Windows check of a machine-wide settings file (issue 22): who owns it and its folder, and
 * who else may change them. The decision runs here on security descriptors in the form the
 * PowerShell of windows-ownership.ts prints, shaped as Windows' own defaults are (ProgramData's
 * inheritable entries); on Windows (the project's GitHub workflow) the same check also runs on
 * real files through Get-Acl.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readWindowsAcl,
  type WindowsAcl,
  windowsAclProblem,
  windowsPowerShell,
} from '../../../../electron/core/managed-settings/windows-ownership';

const SYSTEM = 'S-1-5-18';
const ADMINISTRATORS = 'S-1-5-32-544';
const USERS = 'S-1-5-32-545';
const CREATOR_OWNER = 'S-1-3-0';
const EVERYONE = 'S-1-1-0';
const STAFF = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const FULL_CONTROL = 2032127;
const READ_AND_EXECUTE = 1179817;
const MODIFY = 1245631;
/** ProgramData's `(CI)(WD,AD,WEA,WA)` for Users, inherited by the folders made in it. */
const CREATE_FILES_AND_FOLDERS = 0x2 | 0x4 | 0x10 | 0x100;
const GENERIC_READ = -2147483648;
/** System.IO.FileAttributes as `Get-Item … .Attributes` gives them (learn.microsoft.com, FileAttributes Enum). */
const DIRECTORY = 0x10;
const ARCHIVE = 0x20;
const REPARSE_POINT = 0x400;

const rule = (sid: string, rights: number, extra: Partial<WindowsAcl['rules'][number]> = {}) => ({
  sid,
  rights,
  allow: true,
  inheritOnly: false,
  ...extra,
});

/** A folder an administrator made in ProgramData (as an installer or Group Policy Preferences would). */
const ADMIN_FOLDER: WindowsAcl = {
  attributes: DIRECTORY,
  owner: ADMINISTRATORS,
  rules: [
    rule(SYSTEM, FULL_CONTROL),
    rule(ADMINISTRATORS, FULL_CONTROL),
    rule(CREATOR_OWNER, 0x1000_0000, { inheritOnly: true }),
    rule(USERS, READ_AND_EXECUTE),
    rule(USERS, CREATE_FILES_AND_FOLDERS),
  ],
};
const ADMIN_FILE: WindowsAcl = {
  attributes: ARCHIVE,
  owner: ADMINISTRATORS,
  rules: [rule(SYSTEM, FULL_CONTROL), rule(ADMINISTRATORS, FULL_CONTROL), rule(USERS, READ_AND_EXECUTE)],
};

describe('Windows ownership of a machine-wide settings file', () => {
  it('accepts a folder and file the administrators made, with the rights ProgramData passes on', () => {
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk', ADMIN_FOLDER, 'folder')).toBeNull();
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk\\profiles.json', ADMIN_FILE, 'file')).toBeNull();
  });

  it('refuses a folder a standard user created first (they own it, with full control)', () => {
    const planted: WindowsAcl = {
      attributes: DIRECTORY,
      owner: STAFF,
      rules: [...ADMIN_FOLDER.rules, rule(STAFF, FULL_CONTROL)],
    };
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk', planted, 'folder')).toBe(
      `C:\\ProgramData\\Adoption Desk belongs to ${STAFF}, not to the administrators`,
    );
  });

  it('refuses a file a standard user put into the administrators’ folder (they own it)', () => {
    const planted: WindowsAcl = {
      attributes: ARCHIVE,
      owner: STAFF,
      rules: [rule(STAFF, FULL_CONTROL), rule(SYSTEM, FULL_CONTROL)],
    };
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk\\profiles.json', planted, 'file')).toMatch(
      /belongs to S-1-5-21-.*, not to the administrators$/,
    );
  });

  it('refuses a file others may change, and a folder others may empty', () => {
    const openFile: WindowsAcl = { ...ADMIN_FILE, rules: [...ADMIN_FILE.rules, rule(EVERYONE, MODIFY)] };
    expect(windowsAclProblem('profiles.json', openFile, 'file')).toBe(`profiles.json may be changed by ${EVERYONE}`);
    const openFolder: WindowsAcl = { ...ADMIN_FOLDER, rules: [...ADMIN_FOLDER.rules, rule(USERS, 0x40)] };
    expect(windowsAclProblem('Adoption Desk', openFolder, 'folder')).toBe(`Adoption Desk may be changed by ${USERS}`);
    const genericWrite: WindowsAcl = { ...ADMIN_FILE, rules: [rule(USERS, 0x4000_0000)] };
    expect(windowsAclProblem('profiles.json', genericWrite, 'file')).not.toBeNull();
  });

  it('refuses a folder or file that is a reparse point (a junction, a symbolic link) before its owner is looked at (issue 31, item 8)', () => {
    // A standard user may make C:\\ProgramData\\Adoption Desk a junction (no privilege needed) to a
    // folder of theirs whose descriptor Get-Acl may report as the administrators'.
    const junction: WindowsAcl = { ...ADMIN_FOLDER, attributes: DIRECTORY | REPARSE_POINT };
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk', junction, 'folder')).toBe(
      'C:\\ProgramData\\Adoption Desk is a junction or symbolic link (a reparse point) to another place, not a folder of its own: whoever made the link chose what it holds',
    );
    const linkedFile: WindowsAcl = { ...ADMIN_FILE, attributes: ARCHIVE | REPARSE_POINT };
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk\\profiles.json', linkedFile, 'file')).toBe(
      'C:\\ProgramData\\Adoption Desk\\profiles.json is a junction or symbolic link (a reparse point) to another place, not a file of its own: whoever made the link chose what it holds',
    );
    // the same descriptors without the link pass
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk', ADMIN_FOLDER, 'folder')).toBeNull();
  });

  it('ignores what does not grant a change: deny rules, inherit-only rules, generic read', () => {
    const acl: WindowsAcl = {
      attributes: ARCHIVE,
      owner: SYSTEM,
      rules: [
        rule(EVERYONE, FULL_CONTROL, { allow: false }),
        rule(CREATOR_OWNER, FULL_CONTROL, { inheritOnly: true }),
        rule(USERS, GENERIC_READ),
      ],
    };
    expect(windowsAclProblem('profiles.json', acl, 'file')).toBeNull();
  });

  it('reads the descriptor as PowerShell prints it, a single rule as an object too', async () => {
    const printed = JSON.stringify({
      attributes: DIRECTORY,
      owner: ADMINISTRATORS,
      rules: rule(USERS, READ_AND_EXECUTE),
    });
    const seen: Record<string, string>[] = [];
    const acl = await readWindowsAcl('C:\\ProgramData\\Adoption Desk', async (_script, env) => {
      seen.push(env);
      return `${printed}\r\n`;
    });
    expect(acl.rules).toEqual([rule(USERS, READ_AND_EXECUTE)]);
    expect(acl.attributes).toBe(DIRECTORY);
    // a reparse point: its attributes only, Get-Acl is not asked (it may follow the link)
    const link = await readWindowsAcl('C:\\ProgramData\\Adoption Desk', async () =>
      JSON.stringify({ attributes: DIRECTORY | REPARSE_POINT, owner: '', rules: null }),
    );
    expect(windowsAclProblem('C:\\ProgramData\\Adoption Desk', link, 'folder')).toMatch(
      /is a junction or symbolic link/,
    );
    // The path travels in the environment, never inside the script.
    expect(seen).toEqual([{ ADOPTION_ACL_PATH: 'C:\\ProgramData\\Adoption Desk' }]);
    await expect(readWindowsAcl('x', async () => '{"owner":1}')).rejects.toThrow('Get-Acl printed an unexpected form');
  });
});

const onWindows = process.platform === 'win32';
if (!onWindows)
  console.log('Get-Acl of real files skipped: Windows only (runs in .github/workflows/ci.yml on windows-2022)');

describe.skipIf(!onWindows)('Windows ownership through Get-Acl (Windows only)', () => {
  it('accepts a file of the system, refuses a file everyone may change', async () => {
    const run = windowsPowerShell();
    const hosts = join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'drivers', 'etc', 'hosts');
    expect(windowsAclProblem(hosts, await readWindowsAcl(hosts, run), 'file')).toBeNull();
    const folder = mkdtempSync(join(tmpdir(), 'adoption-acl-'));
    try {
      const file = join(folder, 'profiles.json');
      writeFileSync(file, '{}');
      execFileSync('icacls', [file, '/grant', '*S-1-1-0:(M)']);
      expect(windowsAclProblem(file, await readWindowsAcl(file, run), 'file')).not.toBeNull();
      // a junction (no privilege needed to make one, as a standard user could in ProgramData), to a
      // folder of the test's own; its attributes are the link's, whatever the target's descriptor
      const elsewhere = join(folder, 'elsewhere');
      mkdirSync(elsewhere);
      const junction = join(folder, 'Adoption Desk');
      symlinkSync(elsewhere, junction, 'junction');
      try {
        const seen = await readWindowsAcl(junction, run);
        expect(seen.attributes & REPARSE_POINT).toBe(REPARSE_POINT);
        expect(windowsAclProblem(junction, seen, 'folder')).toMatch(/is a junction or symbolic link/);
        expect((await readWindowsAcl(elsewhere, run)).attributes & REPARSE_POINT).toBe(0);
      } finally {
        unlinkSync(junction);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
