/**
 * The policy templates IT uses (resources/policies/, docs/it-guide.md) name exactly the policies
 * the app reads, at the place it reads them: the ADMX's registry key and value names, the ADML's
 * strings for each, the configuration profile's payload type (the app's bundle id) and keys, and
 * the Linux example, which the app's own reader accepts.
 */
import { DOMParser } from '@xmldom/xmldom';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAC_POLICY_DOMAIN,
  organisationSettings,
  POLICY_NAMES,
  WINDOWS_POLICY_KEY,
} from '../../../../electron/core/managed-settings';
import { onlyOn } from '../../../support/platform';

const POLICIES = resolve(import.meta.dirname, '../../../../resources/policies');
const posixIt = it.skipIf(onlyOn(['linux', 'darwin'], 'POSIX owners and modes of real files (Windows: 0666, uid 0)'));

/** Parses XML, failing on any error or warning xmldom reports (a file Windows or macOS would reject). */
function parseXml(file: string): Document {
  const problems: string[] = [];
  // xmldom 0.8's option is `errorHandler` (called with warnings, errors and fatal errors).
  const doc = new DOMParser({
    errorHandler: (level: string, message: string) => problems.push(`${level}: ${message}`),
  }).parseFromString(readFileSync(join(POLICIES, file), 'utf8'), 'text/xml');
  expect(problems, file).toEqual([]);
  return doc as unknown as Document;
}

const all = (doc: Document, tag: string): Element[] =>
  Array.from(doc.getElementsByTagName(tag) as unknown as ArrayLike<Element>);

describe('policy templates', () => {
  it('the XML check itself refuses a broken file', () => {
    const problems: string[] = [];
    new DOMParser({ errorHandler: (level: string) => problems.push(level) }).parseFromString('<a><b></a>', 'text/xml');
    expect(problems).not.toEqual([]);
  });

  it('ADMX: one policy per setting, each a text value under the key the app reads', () => {
    const admx = parseXml('windows/AdoptionDesk.admx');
    const policies = all(admx, 'policy');
    expect(policies.map((p) => p.getAttribute('name'))).toEqual(POLICY_NAMES);
    for (const policy of policies) {
      expect(policy.getAttribute('key')?.toLowerCase()).toBe(WINDOWS_POLICY_KEY.toLowerCase());
      // Machine and user: the app reads HKLM, then HKCU (electron/main/policy-store.ts).
      expect(policy.getAttribute('class')).toBe('Both');
      // One value each, named as the policy: a text box, or for UpdateMode a choice of "on" and "off".
      const values = ['text', 'enum'].flatMap((tag) =>
        Array.from(policy.getElementsByTagName(tag) as unknown as ArrayLike<Element>),
      );
      expect(values.map((v) => v.getAttribute('valueName'))).toEqual([policy.getAttribute('name')]);
      if (values[0]?.tagName === 'enum') {
        const choices = Array.from(values[0].getElementsByTagName('string') as unknown as ArrayLike<Element>);
        expect(choices.map((c) => c.textContent)).toEqual(['on', 'off']);
      }
    }
  });

  it('ADML: every string and presentation the ADMX refers to exists', () => {
    const admx = readFileSync(join(POLICIES, 'windows/AdoptionDesk.admx'), 'utf8');
    const adml = parseXml('windows/en-US/AdoptionDesk.adml');
    const strings = new Set(all(adml, 'string').map((s) => s.getAttribute('id')));
    const presentations = new Set(all(adml, 'presentation').map((p) => p.getAttribute('id')));
    for (const [, kind, id] of admx.matchAll(/\$\((string|presentation)\.([A-Za-z0-9_]+)\)/g)) {
      expect((kind === 'string' ? strings : presentations).has(id ?? ''), `${kind}.${id}`).toBe(true);
    }
    const controls = [...all(adml, 'textBox'), ...all(adml, 'dropdownList')].map((t) => t.getAttribute('refId'));
    expect(controls.sort()).toEqual([...POLICY_NAMES].sort());
  });

  it('configuration profile: a payload for the app’s bundle id with every setting', () => {
    const profile = parseXml('macos/org.adoption-desk.app.mobileconfig');
    const inner = all(profile, 'dict')[1];
    expect(inner).toBeDefined();
    const keys = Array.from(inner!.childNodes as unknown as ArrayLike<Element>).filter((n) => n.nodeName === 'key');
    const value = (key: string) => {
      const at = keys.find((k) => k.textContent === key);
      let next = at?.nextSibling;
      while (next && next.nodeType !== 1) next = next.nextSibling;
      return next?.textContent;
    };
    expect(value('PayloadType')).toBe(MAC_POLICY_DOMAIN);
    for (const name of POLICY_NAMES) expect(value(name), name).toBeTruthy();
    for (const name of ['ProductionAddress', 'StagingAddress', 'UpdateFeedUrl'])
      expect(value(name), name).toMatch(/^https:\/\//);
    expect(value('UpdateMode')).toBe('on');
  });

  posixIt('Linux: the example, installed as root would install it, is read by the app', async () => {
    const base = mkdtempSync(join(tmpdir(), 'adoption-policy-example-'));
    try {
      chmodSync(base, 0o755);
      copyFileSync(join(POLICIES, 'linux/adoption-desk.json'), join(base, 'adoption-desk.json'));
      chmodSync(join(base, 'adoption-desk.json'), 0o644);
      const source = await organisationSettings({
        platform: 'linux',
        env: {},
        packagedFile: join(base, 'none.json'),
        linuxPolicyFolder: base,
        posix: { trustedUids: [0, process.getuid?.() ?? 0] },
      });
      expect(source).toMatchObject({
        settings: {
          production: { baseUrl: 'https://adopt.example.org/v1' },
          staging: { baseUrl: 'https://staging.adopt.example.org/v1' },
        },
        problems: [],
        updates: { enabled: true, url: 'https://updates.example.org/adoption-desk/' },
      });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
