import { describe, expect, it } from 'vitest';
import { organisationProfilesDir, startupSettings } from '../../../electron/main/startup-settings';

const OVERRIDES = {
  ADOPTION_USER_DATA_DIR: '/tmp/attacker-data',
  ADOPTION_KEYCHAIN_SERVICE: 'attacker service',
  ADOPTION_LOCAL_DEMO_URL: 'http://127.0.0.1:9999/v1',
  ELECTRON_RENDERER_URL: 'http://127.0.0.1:5173/',
};

const base = {
  env: OVERRIDES,
  platform: 'linux' as NodeJS.Platform,
  appPath: '/home/dev/adoption-desk',
  resourcesPath: '/opt/Adoption Desk/resources',
  fileExists: () => false,
};

describe('startup settings', () => {
  it('takes the development overrides from the environment when not packaged', () => {
    expect(startupSettings({ ...base, isPackaged: false })).toEqual({
      userDataDir: '/tmp/attacker-data',
      keychainService: 'attacker service',
      localDemoUrl: 'http://127.0.0.1:9999/v1',
      devServerUrl: 'http://127.0.0.1:5173/',
      profilesDir: '/home/dev/adoption-desk/resources',
    });
    expect(startupSettings({ ...base, env: { ADOPTION_USER_DATA_DIR: ' ' }, isPackaged: false })).toEqual({
      profilesDir: '/home/dev/adoption-desk/resources',
    });
  });

  it('ignores every environment override when packaged', () => {
    expect(startupSettings({ ...base, isPackaged: true })).toEqual({ profilesDir: '/opt/Adoption Desk/resources' });
  });

  it('reads the organisation’s profiles.json from the machine-wide folder when IT put one there', () => {
    const seen: string[] = [];
    const fileExists = (path: string) => (seen.push(path), true);
    expect(startupSettings({ ...base, isPackaged: true, fileExists })).toEqual({ profilesDir: '/etc/adoption-desk' });
    expect(seen).toEqual(['/etc/adoption-desk/profiles.json']);
    expect(
      startupSettings({
        ...base,
        isPackaged: true,
        platform: 'win32',
        env: { ProgramData: 'D:\\ProgramData' },
        fileExists,
      }),
    ).toEqual({ profilesDir: 'D:\\ProgramData\\Adoption Desk' });
    expect(seen.at(-1)).toBe('D:\\ProgramData\\Adoption Desk\\profiles.json');
  });

  it('names one machine-wide folder per OS', () => {
    expect(organisationProfilesDir('linux', {})).toBe('/etc/adoption-desk');
    expect(organisationProfilesDir('darwin', {})).toBe('/Library/Application Support/Adoption Desk');
    expect(organisationProfilesDir('win32', {})).toBe('C:\\ProgramData\\Adoption Desk');
    expect(organisationProfilesDir('win32', { ProgramData: 'E:\\PD' })).toBe('E:\\PD\\Adoption Desk');
  });
});
