// What the test suite needs (a supported Node, the system packages) and the one command that installs each.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const hasLibsecret = () => spawnSync('pkg-config', ['--exists', 'libsecret-1'], { stdio: 'ignore' }).status === 0;

const CHECKS = [
  {
    name: 'chromium',
    ok: () => existsSync(process.env.ADOPTION_CHROMIUM || '/usr/bin/chromium'),
    pkg: 'chromium',
  },
  { name: 'dbus-run-session', ok: () => has('dbus-run-session'), pkg: 'dbus' },
  { name: 'gnome-keyring-daemon', ok: () => has('gnome-keyring-daemon'), pkg: 'gnome-keyring' },
  { name: 'nginx', ok: () => existsSync('/usr/sbin/nginx') || has('nginx'), pkg: 'nginx' },
  { name: 'tinyproxy', ok: () => existsSync('/usr/bin/tinyproxy') || has('tinyproxy'), pkg: 'tinyproxy' },
  { name: 'libsecret (pkg-config libsecret-1)', ok: () => has('pkg-config') && hasLibsecret(), pkg: 'libsecret-1-dev' },
];

/** The Node versions the project supports (package.json `engines`): 22.12 or later. */
export function nodeSupported(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/** Returns a message naming what is missing and the exact install command, or null. */
export function checkPrerequisites() {
  if (!nodeSupported()) {
    return [
      `Node ${process.versions.node} is older than the project supports (22.12 or later).`,
      'Run with a supported Node: . scripts/use-node.sh && npm ci && npm test',
    ].join('\n');
  }
  const missing = CHECKS.filter((check) => !check.ok());
  if (!existsSync('node_modules/.bin/vitest')) {
    return 'The npm packages are not installed. Run: npm ci';
  }
  if (missing.length === 0) return null;
  const packages = [...new Set(missing.map((m) => m.pkg))].join(' ');
  return [
    `Missing system prerequisites: ${missing.map((m) => m.name).join(', ')}.`,
    `Install them with: sh scripts/install-debian-packages.sh (or apt-get install -y ${packages})`,
  ].join('\n');
}
