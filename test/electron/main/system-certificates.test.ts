import { describe, expect, it } from 'vitest';
import { trustSystemCertificates } from '../../../electron/main/system-certificates';

describe('trustSystemCertificates', () => {
  it('adds the system roots Node does not already trust, keeping its own', () => {
    let set: string[] | null = null;
    const tls = {
      getCACertificates: (type: 'default' | 'system') =>
        type === 'default' ? ['mozilla-a', 'mozilla-b'] : ['mozilla-a', 'org-root'],
      setDefaultCACertificates: (certificates: string[]) => void (set = certificates),
    };
    expect(trustSystemCertificates(tls)).toBe(1);
    expect(set).toEqual(['mozilla-a', 'mozilla-b', 'org-root']);
  });

  it('changes nothing when the system adds no root, or on a runtime without the API', () => {
    let calls = 0;
    const same = {
      getCACertificates: () => ['mozilla-a'],
      setDefaultCACertificates: () => void (calls += 1),
    };
    expect(trustSystemCertificates(same)).toBe(0);
    expect(calls).toBe(0);
    expect(trustSystemCertificates({})).toBeNull();
  });
});
