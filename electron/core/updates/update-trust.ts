/**
 * Whether this installed copy can tell that an update really comes from its publisher (issue 31,
 * item 3). Whoever serves the feed chooses the file and the SHA-512 electron-updater checks it
 * against, so that hash proves nothing about who made the update; only a signature checked
 * against what the installed app already trusts does. From electron-updater 6.8's source:
 * - Windows: `NsisUpdater.verifySignature` checks nothing (returns null) when the updater's config
 *   has no `publisherName`; with one, the downloaded setup must carry a valid Authenticode
 *   signature whose subject matches it, a full distinguished name key by key
 *   (windowsExecutableCodeSignatureVerifier.js). The app trusts the publisher of its own
 *   signature: the running executable's signer, read with `Get-AuthenticodeSignature`. An unsigned
 *   copy has no one to trust: no updates. electron-updater updates the per-user NSIS install only
 *   (its `Uninstall <product>.exe` beside the executable, app-builder-lib templates/nsis/common.nsh);
 *   an MSI install or a copied folder is left to IT.
 * - macOS: Squirrel.Mac installs only an update whose code signature satisfies the running app's
 *   designated requirement. An ad-hoc signed copy (the unsigned build, re-signed after its fuses
 *   were flipped) has a requirement no other build meets, so it does not look for updates at all.
 * - Linux: electron-updater checks no signature of a deb or an AppImage (DebUpdater installs
 *   through pkexec, as root): the app does not update itself; the package manager does.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { t } from '../../../src/shared/i18n';
import { type RunPowerShell, windowsPowerShell } from '../managed-settings';
import type { UpdateSettings } from './update-settings';

/** What the installed app knows about itself. */
export interface InstallFacts {
  platform: NodeJS.Platform;
  /** Windows: the per-user setup installed it (`Uninstall Adoption Desk.exe` beside the executable). */
  windowsSetup?: boolean;
  /** Windows: the subject of the running executable's valid Authenticode signature, null when there is none. */
  windowsSigner?: string | null;
  /** macOS: the Team ID of the app's code signature, null when ad hoc or unsigned. */
  macTeam?: string | null;
}

export type UpdateTrust =
  | {
      trusted: true;
      /** Windows: whom electron-updater requires the update to be signed by. */ publisherName: string | null;
    }
  | { trusted: false; why: 'linux' | 'notSetup' | 'unsigned' };

/** Whom an update must come from, or why this copy cannot tell and so does not update itself. */
export function updateTrust(facts: InstallFacts): UpdateTrust {
  switch (facts.platform) {
    case 'win32':
      if (!facts.windowsSetup) return { trusted: false, why: 'notSetup' };
      return facts.windowsSigner
        ? { trusted: true, publisherName: facts.windowsSigner }
        : { trusted: false, why: 'unsigned' };
    case 'darwin':
      return facts.macTeam ? { trusted: true, publisherName: null } : { trusted: false, why: 'unsigned' };
    default:
      return { trusted: false, why: 'linux' };
  }
}

/**
 * The organisation's settings, switched off with the reason when this copy cannot check who made an
 * update. The organisation's own "off" keeps its own words.
 */
export function trustedSettings(settings: UpdateSettings, trust: UpdateTrust): UpdateSettings {
  if (!settings.enabled || trust.trusted) return settings;
  const why = trust.why;
  return {
    enabled: false,
    get reason() {
      return t('coreUpdates.untrusted', { why });
    },
  };
}

/**
 * The updater's own config (electron-updater reads it instead of `resources/app-update.yml` when given
 * as `updateConfigPath`; JSON is YAML): the organisation's generic feed, the cache folder's name
 * (`updaterCacheDirName`, read before every download: AppUpdater.getOrCreateDownloadHelper) and, on
 * Windows, the publisher every update must be signed by.
 */
export function updaterConfig(feedUrl: string, trust: Extract<UpdateTrust, { trusted: true }>): string {
  return `${JSON.stringify(
    {
      provider: 'generic',
      url: feedUrl,
      updaterCacheDirName: 'adoption-desk-updater',
      ...(trust.publisherName ? { publisherName: [trust.publisherName] } : {}),
    },
    null,
    2,
  )}\n`;
}

/** Windows: the signer of `exe` when its Authenticode signature is valid (Status 0, "Valid"), else null. */
export async function readWindowsSigner(exe: string, run: RunPowerShell): Promise<string | null> {
  // The path comes in through the environment, so nothing in it is ever parsed as code.
  const script = [
    "$ErrorActionPreference = 'Stop'",
    '$s = Get-AuthenticodeSignature -LiteralPath $env:ADOPTION_SIGNED_PATH',
    '[pscustomobject]@{ status = [int]$s.Status; subject = $s.SignerCertificate.Subject } | ConvertTo-Json -Compress',
  ].join('\n');
  const printed = JSON.parse((await run(script, { ADOPTION_SIGNED_PATH: exe })).trim()) as {
    status?: unknown;
    subject?: unknown;
  };
  // System.Management.Automation.SignatureStatus: Valid = 0.
  return printed.status === 0 && typeof printed.subject === 'string' && printed.subject !== '' ? printed.subject : null;
}

/** macOS: the Team ID in `codesign --display --verbose=2`'s report (on stderr), null for "not set" or none. */
export function macTeamFromCodesign(report: string): string | null {
  const team = /^TeamIdentifier=(.+)$/m.exec(report)?.[1]?.trim();
  return team && team !== 'not set' ? team : null;
}

/** macOS: asks codesign (by its full path) about the app bundle. */
export function readMacTeam(appBundle: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('/usr/bin/codesign', ['--display', '--verbose=2', appBundle], { timeout: 20_000 }, (error, _out, err) =>
      resolve(error ? null : macTeamFromCodesign(String(err))),
    );
  });
}

/**
 * What the running installed app knows about itself: `executable` is `process.execPath`
 * (Windows: `…\\Adoption Desk.exe`; macOS: `…/Adoption Desk.app/Contents/MacOS/Adoption Desk`).
 */
export async function readInstallFacts(options: {
  platform: NodeJS.Platform;
  executable: string;
  productName: string;
  runPowerShell?: RunPowerShell;
  macTeam?: (appBundle: string) => Promise<string | null>;
}): Promise<InstallFacts> {
  const { platform, executable } = options;
  if (platform === 'win32') {
    const windowsSetup = existsSync(join(dirname(executable), `Uninstall ${options.productName}.exe`));
    const signer = windowsSetup
      ? await readWindowsSigner(executable, options.runPowerShell ?? windowsPowerShell()).catch(() => null)
      : null;
    return { platform, windowsSetup, windowsSigner: signer };
  }
  if (platform === 'darwin') {
    const bundle = dirname(dirname(dirname(executable)));
    return { platform, macTeam: await (options.macTeam ?? readMacTeam)(bundle) };
  }
  return { platform };
}
