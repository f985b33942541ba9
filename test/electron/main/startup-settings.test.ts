import { describe, expect, it } from 'vitest';
import { startupSettings } from '../../../electron/main/startup-settings';

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
};

describe('startup settings', () => {
  it('takes the development overrides from the environment when not packaged', () => {
    expect(startupSettings({ ...base, isPackaged: false })).toEqual({
      userDataDir: '/tmp/attacker-data',
      keychainService: 'attacker service',
      localDemoUrl: 'http://127.0.0.1:9999/v1',
      devServerUrl: 'http://127.0.0.1:5173/',
      profilesFile: '/home/dev/adoption-desk/resources/profiles.json',
      managed: false,
    });
    expect(startupSettings({ ...base, env: { ADOPTION_USER_DATA_DIR: ' ' }, isPackaged: false })).toEqual({
      profilesFile: '/home/dev/adoption-desk/resources/profiles.json',
      managed: false,
    });
  });

  it('ignores every environment override when packaged, and reads the organisation’s managed settings', () => {
    expect(startupSettings({ ...base, isPackaged: true })).toEqual({
      profilesFile: '/opt/Adoption Desk/resources/profiles.json',
      managed: true,
    });
    expect(
      startupSettings({
        ...base,
        isPackaged: true,
        platform: 'win32',
        resourcesPath: 'C:\\Apps\\Adoption Desk\\resources',
      }),
    ).toEqual({ profilesFile: 'C:\\Apps\\Adoption Desk\\resources\\profiles.json', managed: true });
  });
});
