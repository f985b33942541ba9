/**
 * Is a machine-wide settings file on Windows really the administrators'? A standard user may
 * create folders in `%ProgramData%` (its ACL gives BUILTIN\Users "create folders / append data"),
 * and becomes the owner, with full control, of what they create there. So the file and its
 * folder must each be owned by SYSTEM, Administrators or TrustedInstaller, and no other account
 * may be allowed to change them (write, delete, change permissions or owner); for the folder, to
 * delete or replace what is in it. Adding a new file to the folder is allowed (ProgramData's
 * subfolders inherit that right for Users): such a file would belong to its creator and fail the
 * owner check.
 *
 * The security descriptor is read with Windows PowerShell's `Get-Acl` (present on every Windows
 * since 7), as SIDs rather than account names (names are translated to the system's language):
 * `ObjectSecurity.GetOwner(Type)` and `CommonObjectSecurity.GetAccessRules(includeExplicit,
 * includeInherited, Type)` of .NET's System.Security.AccessControl. Only the decision below runs
 * on our Linux machines (with descriptors in that form); the PowerShell call runs on Windows only.
 *
 * A reparse point is refused before any of that: a standard user may make
 * `%ProgramData%\Adoption Desk` a directory junction (no privilege needed) to a folder they
 * prepared elsewhere, and what Get-Acl reports for a link (its own descriptor or its target's) is
 * not what decides what is read through it. So the script first reads the item's attributes with
 * `Get-Item -LiteralPath … -Force`: .NET's `FileSystemInfo.Attributes`, a
 * `System.IO.FileAttributes` whose `ReparsePoint` (0x400) is set for a junction, a symbolic link
 * or any other reparse point (PowerShell shows such an item's Mode with an `l`, e.g. `d----l`), and
 * is the link's own, not its target's. For a reparse point Get-Acl is not run at all.
 */
import { execFile } from 'node:child_process';
import { z } from 'zod';
import { describeIssues } from '../../../src/shared/basics/errors';

/** Well-known SIDs (learn.microsoft.com, "Well-known SIDs"). */
export const TRUSTED_SIDS: ReadonlyMap<string, string> = new Map([
  ['S-1-5-18', 'SYSTEM'],
  ['S-1-5-32-544', 'Administrators'],
  ['S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464', 'TrustedInstaller'],
]);

/** FileSystemRights bits (System.Security.AccessControl.FileSystemRights) and generic rights. */
const RIGHTS = {
  writeData: 0x2,
  appendData: 0x4,
  writeExtendedAttributes: 0x10,
  deleteSubdirectoriesAndFiles: 0x40,
  writeAttributes: 0x100,
  delete: 0x1_0000,
  changePermissions: 0x4_0000,
  takeOwnership: 0x8_0000,
  genericAll: 0x1000_0000,
  genericWrite: 0x4000_0000,
} as const;

const CHANGE_ITSELF = RIGHTS.delete | RIGHTS.changePermissions | RIGHTS.takeOwnership | RIGHTS.genericAll;
/** What no one but the administrators may do to the file. */
const FILE_WRITE =
  CHANGE_ITSELF |
  RIGHTS.writeData |
  RIGHTS.appendData |
  RIGHTS.writeExtendedAttributes |
  RIGHTS.writeAttributes |
  RIGHTS.genericWrite;
/** What no one but the administrators may do to the folder: remove or replace what is in it. */
const FOLDER_WRITE = CHANGE_ITSELF | RIGHTS.deleteSubdirectoriesAndFiles;

/** `System.IO.FileAttributes.ReparsePoint` (learn.microsoft.com, "FileAttributes Enum"). */
export const REPARSE_POINT = 0x400;

/** One object's attributes, owner and access rules, as the PowerShell below prints them. */
export const WindowsAcl = z.object({
  /** `System.IO.FileAttributes` of the item itself (a link's own, never its target's). */
  attributes: z.number().int(),
  /** Empty for a reparse point (Get-Acl is not asked). */
  owner: z.string(),
  rules: z.preprocess(
    (value) => (Array.isArray(value) ? value : value == null ? [] : [value]),
    z.array(
      z.object({
        sid: z.string(),
        /** FileSystemRights as a signed 32-bit number (generic read is negative). */
        rights: z.number().int(),
        allow: z.boolean(),
        /** Applies to what the folder holds, not to the object itself. */
        inheritOnly: z.boolean(),
      }),
    ),
  ),
});
export type WindowsAcl = z.infer<typeof WindowsAcl>;

const nameOf = (sid: string): string => TRUSTED_SIDS.get(sid) ?? sid;

/** Why `acl` (of `path`, a file or a folder) lets someone other than the administrators change it, or null. */
export function windowsAclProblem(path: string, acl: WindowsAcl, kind: 'file' | 'folder'): string | null {
  if ((acl.attributes & REPARSE_POINT) !== 0)
    return `${path} is a junction or symbolic link (a reparse point) to another place, not a ${kind} of its own: whoever made the link chose what it holds`;
  if (!TRUSTED_SIDS.has(acl.owner)) return `${path} belongs to ${acl.owner}, not to the administrators`;
  const forbidden = kind === 'file' ? FILE_WRITE : FOLDER_WRITE;
  for (const rule of acl.rules) {
    if (!rule.allow || rule.inheritOnly || TRUSTED_SIDS.has(rule.sid)) continue;
    if (((rule.rights >>> 0) & forbidden) !== 0) return `${path} may be changed by ${nameOf(rule.sid)}`;
  }
  return null;
}

/** The script: the path comes in through the environment, so nothing in it is ever parsed as code. */
const SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  '$attributes = (Get-Item -LiteralPath $env:ADOPTION_ACL_PATH -Force).Attributes.value__',
  `if (($attributes -band ${REPARSE_POINT}) -ne 0) {`,
  "  [pscustomobject]@{ attributes = $attributes; owner = ''; rules = @() } | ConvertTo-Json -Compress -Depth 4",
  '  exit 0',
  '}',
  '$sid = [System.Security.Principal.SecurityIdentifier]',
  '$acl = Get-Acl -LiteralPath $env:ADOPTION_ACL_PATH',
  '$rules = @($acl.GetAccessRules($true, $true, $sid) | ForEach-Object { [pscustomobject]@{',
  '  sid = $_.IdentityReference.Value; rights = $_.FileSystemRights.value__;',
  "  allow = ($_.AccessControlType -eq 'Allow'); inheritOnly = (($_.PropagationFlags -band 2) -ne 0) } })",
  '[pscustomobject]@{ attributes = $attributes; owner = $acl.GetOwner($sid).Value; rules = $rules } | ConvertTo-Json -Compress -Depth 4',
].join('\n');

export type RunPowerShell = (script: string, env: Record<string, string>) => Promise<string>;

/** Windows PowerShell by its full path (never a `powershell.exe` found first on PATH). */
export function windowsPowerShell(systemRoot = process.env.SystemRoot ?? 'C:\\Windows'): RunPowerShell {
  const exe = `${systemRoot}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`;
  return (script, env) =>
    new Promise((resolve, reject) => {
      const encoded = Buffer.from(script, 'utf16le').toString('base64');
      execFile(
        exe,
        ['-NoLogo', '-NoProfile', '-NonInteractive', '-EncodedCommand', encoded],
        { env: { ...process.env, ...env }, timeout: 20_000, windowsHide: true },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      );
    });
}

/** Reads the attributes, owner and access rules of `path` on Windows (only the attributes of a reparse point). */
export async function readWindowsAcl(path: string, run: RunPowerShell): Promise<WindowsAcl> {
  const printed = await run(SCRIPT, { ADOPTION_ACL_PATH: path });
  const parsed = WindowsAcl.safeParse(JSON.parse(printed.trim()) as unknown);
  if (!parsed.success) throw new Error(`Get-Acl printed an unexpected form: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}
