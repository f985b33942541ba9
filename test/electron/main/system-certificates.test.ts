import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { rootsIn, trustSystemCertificates } from '../../../electron/main/system-certificates';

describe('trustSystemCertificates', () => {
  it('adds the system roots Node does not already trust, keeping its own', () => {
    let set: string[] | null = null;
    const tls = {
      getCACertificates: (type: 'default' | 'system') =>
        type === 'default' ? ['mozilla-a', 'mozilla-b'] : ['mozilla-a', 'org-root'],
      setDefaultCACertificates: (certificates: string[]) => void (set = certificates),
    };
    expect(trustSystemCertificates(tls)).toEqual({ system: 2, added: 1 });
    expect(set).toEqual(['mozilla-a', 'mozilla-b', 'org-root']);
  });

  it('changes nothing when the system adds no root, or on a runtime without the API', () => {
    let calls = 0;
    const same = {
      getCACertificates: () => ['mozilla-a'],
      setDefaultCACertificates: () => void (calls += 1),
    };
    expect(trustSystemCertificates(same)).toEqual({ system: 1, added: 0 });
    expect(calls).toBe(0);
    expect(trustSystemCertificates({})).toBeNull();
  });
});

describe('when the system store reads as empty (Electron on macOS)', () => {
  const CERTS = join(import.meta.dirname, '../../support/certificates');
  const orgRoot = readFileSync(join(CERTS, 'organisation-root.pem'), 'utf8');
  const leaf = readFileSync(join(CERTS, 'proxy-leaf.pem'), 'utf8');
  const mozilla = [...rootCertificates];

  it('reads the roots where the system keeps them: self-signed CAs only, each once, never a leaf', () => {
    let set: string[] | null = null;
    const asked: string[] = [];
    const tls = {
      getCACertificates: (type: 'default' | 'system') => (type === 'default' ? mozilla : []),
      setDefaultCACertificates: (certificates: string[]) => void (set = certificates),
    };
    // As `security find-certificate -a -p` prints them: one after another, with text around.
    const keychains = `${orgRoot}\n${leaf}\nnot a certificate\n${orgRoot}`;
    const added = trustSystemCertificates(tls, {
      platform: 'darwin',
      readRoots: (platform) => {
        asked.push(platform);
        return keychains;
      },
    });
    expect(asked).toEqual(['darwin']);
    expect(added).toEqual({ system: 1, added: 1 });
    expect(set).toHaveLength(mozilla.length + 1);
    expect(new X509Certificate(set!.at(-1)!).subject).toContain('CN=Example Shelter Inspection Root');
  });

  it('takes Node’s own reading when it has one, and nothing when neither has a root', () => {
    let asked = 0;
    const readRoots = () => {
      asked += 1;
      return '';
    };
    const withSystem = {
      getCACertificates: (type: 'default' | 'system') => (type === 'default' ? ['mozilla-a'] : ['org-root']),
      setDefaultCACertificates: () => undefined,
    };
    expect(trustSystemCertificates(withSystem, { platform: 'darwin', readRoots })).toEqual({ system: 1, added: 1 });
    expect(asked).toBe(0);
    const empty = { getCACertificates: () => [], setDefaultCACertificates: () => undefined };
    expect(trustSystemCertificates(empty, { platform: 'darwin', readRoots })).toEqual({ system: 0, added: 0 });
    expect(asked).toBe(1);
  });

  it('keeps roots only: a real bundle of Mozilla’s roots is read whole', () => {
    expect(rootsIn(mozilla.join('\n')).length).toBeGreaterThan(100);
    expect(rootsIn(leaf)).toEqual([]);
  });
});
