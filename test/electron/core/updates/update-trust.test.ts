/**
 * Whom an update must come from (issue 31, item 3): the installed app updates itself only where an
 * update is checked against what it already trusts (Windows: the publisher of its own Authenticode
 * signature, given to electron-updater as `publisherName`; macOS: Squirrel.Mac's code-signature
 * check, which an ad-hoc copy cannot pass), never on Linux (no signature checked there), and the
 * Windows MSI install is left to IT. The facts come from PowerShell and codesign, played here by
 * stand-ins that answer as they do.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// electron-updater reads its config with js-yaml (AppUpdater.loadUpdateConfig): the same parser here.
// @ts-expect-error -- js-yaml ships no types; `load` parses YAML (JSON included) into a value
import { load } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type InstallFacts,
  macTeamFromCodesign,
  readInstallFacts,
  readWindowsSigner,
  trustedSettings,
  updaterConfig,
  updateTrust,
} from '../../../../electron/core/updates';

const FEED = { enabled: true as const, feedUrl: 'https://updates.example.org/adoption-desk/' };
const PUBLISHER = 'CN=Adoption Desk Team, O=Adoption Desk Team, L=Leeds, C=GB';

describe('whom an update must come from', () => {
  it('Windows: the per-user setup, signed: updates must be signed by the same publisher (full name)', () => {
    const trust = updateTrust({ platform: 'win32', windowsSetup: true, windowsSigner: PUBLISHER });
    expect(trust).toEqual({ trusted: true, publisherName: PUBLISHER });
    expect(trustedSettings(FEED, trust)).toBe(FEED);
    expect(load(updaterConfig(FEED.feedUrl, { trusted: true, publisherName: PUBLISHER }))).toEqual({
      provider: 'generic',
      url: FEED.feedUrl,
      updaterCacheDirName: 'adoption-desk-updater',
      publisherName: [PUBLISHER],
    });
  });

  it('Windows unsigned, the MSI or a copied folder, Linux always: off, each saying why', () => {
    const cases: [InstallFacts, string][] = [
      [
        { platform: 'win32', windowsSetup: true, windowsSigner: null },
        'This copy of Adoption Desk is not signed, so it cannot check that an update comes from its publisher: updates are off.',
      ],
      [
        { platform: 'win32', windowsSetup: false, windowsSigner: PUBLISHER },
        'This copy was not installed by the Adoption Desk setup program (an MSI installation or a copied folder): your IT department installs new versions.',
      ],
      [
        { platform: 'linux' },
        'On Linux, Adoption Desk is updated by your package manager (apt, for example), not by itself.',
      ],
      [
        { platform: 'darwin', macTeam: null },
        'This copy of Adoption Desk is not signed, so it cannot check that an update comes from its publisher: updates are off.',
      ],
    ];
    for (const [facts, reason] of cases) {
      const settings = trustedSettings(FEED, updateTrust(facts));
      expect(settings, JSON.stringify(facts)).toEqual({ enabled: false, reason });
    }
  });

  it('macOS signed with a Team ID: Squirrel.Mac checks the code signature, no publisher name is needed', () => {
    const trust = updateTrust({ platform: 'darwin', macTeam: 'ABCDE12345' });
    expect(trust).toEqual({ trusted: true, publisherName: null });
    expect(load(updaterConfig(FEED.feedUrl, { trusted: true, publisherName: null }))).not.toHaveProperty(
      'publisherName',
    );
  });

  it('the organisation’s own “off” keeps its words', () => {
    const off = { enabled: false as const, reason: 'Your organisation switched updates off.' };
    expect(trustedSettings(off, updateTrust({ platform: 'linux' }))).toBe(off);
  });
});

describe('what the installed app knows about itself', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('Get-AuthenticodeSignature: the signer only when the status is Valid (0); the path never inside the script', async () => {
    const asked: { script: string; env: Record<string, string> }[] = [];
    const answer = (printed: string) => async (script: string, env: Record<string, string>) => {
      asked.push({ script, env });
      return `${printed}\r\n`;
    };
    const exe = "C:\\Users\\o'brien\\AppData\\Local\\Programs\\adoption-desk\\Adoption Desk.exe";
    expect(await readWindowsSigner(exe, answer(JSON.stringify({ status: 0, subject: PUBLISHER })))).toBe(PUBLISHER);
    // SignatureStatus: NotSigned = 2, HashMismatch = 3, NotTrusted = 4.
    for (const status of [2, 3, 4])
      expect(await readWindowsSigner(exe, answer(JSON.stringify({ status, subject: PUBLISHER })))).toBeNull();
    expect(await readWindowsSigner(exe, answer(JSON.stringify({ status: 2, subject: null })))).toBeNull();
    expect(asked[0]?.env).toEqual({ ADOPTION_SIGNED_PATH: exe });
    expect(asked[0]?.script).not.toContain('brien');
  });

  it('codesign’s report: the Team ID of a Developer ID signature, none for an ad-hoc one', () => {
    const signed = [
      'Executable=/Applications/Adoption Desk.app/Contents/MacOS/Adoption Desk',
      'Identifier=org.adoption-desk.app',
      'Authority=Developer ID Application: Adoption Desk Team (ABCDE12345)',
      'TeamIdentifier=ABCDE12345',
    ].join('\n');
    const adHoc = ['Identifier=org.adoption-desk.app', 'Signature=adhoc', 'TeamIdentifier=not set'].join('\n');
    expect(macTeamFromCodesign(signed)).toBe('ABCDE12345');
    expect(macTeamFromCodesign(adHoc)).toBeNull();
    expect(macTeamFromCodesign('')).toBeNull();
  });

  it('Windows: the per-user setup is known by its uninstaller beside the executable; no PowerShell for a copy', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'adoption-install-'));
    dirs.push(folder);
    const exe = join(folder, 'Adoption Desk.exe');
    let calls = 0;
    const runPowerShell = async () => {
      calls += 1;
      return JSON.stringify({ status: 0, subject: PUBLISHER });
    };
    const options = { platform: 'win32' as const, executable: exe, productName: 'Adoption Desk', runPowerShell };
    expect(await readInstallFacts(options)).toEqual({ platform: 'win32', windowsSetup: false, windowsSigner: null });
    expect(calls).toBe(0);
    writeFileSync(join(folder, 'Uninstall Adoption Desk.exe'), '');
    expect(await readInstallFacts(options)).toEqual({
      platform: 'win32',
      windowsSetup: true,
      windowsSigner: PUBLISHER,
    });
    // PowerShell failing is no signer, never an error at start.
    const failing = async () => Promise.reject(new Error('powershell.exe not found'));
    expect(await readInstallFacts({ ...options, runPowerShell: failing })).toMatchObject({ windowsSigner: null });
  });

  it('macOS: asks about the app bundle that holds the executable', async () => {
    const bundles: string[] = [];
    const facts = await readInstallFacts({
      platform: 'darwin',
      executable: '/Applications/Adoption Desk.app/Contents/MacOS/Adoption Desk',
      productName: 'Adoption Desk',
      macTeam: async (bundle) => {
        bundles.push(bundle);
        return 'ABCDE12345';
      },
    });
    expect(bundles).toEqual(['/Applications/Adoption Desk.app']);
    expect(facts).toEqual({ platform: 'darwin', macTeam: 'ABCDE12345' });
  });
});
