#!/usr/bin/env node
// Runs a command inside a private D-Bus session with an unlocked gnome-keyring (a real
// Secret Service), leaving no process behind (Linux; elsewhere it runs the command as is).
// Usage: node scripts/with-keyring.mjs <command> [args...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node scripts/with-keyring.mjs <command> [args...]');
  process.exit(2);
}
// macOS and Windows have their keychain in every session (Keychain, Credential Manager): run as is.
if (process.platform !== 'linux') {
  const direct = spawnSync(args[0], args.slice(1), { stdio: 'inherit', shell: process.platform === 'win32' });
  if (direct.error) {
    console.error(`could not start ${args[0]}: ${direct.error.message}`);
    process.exit(127);
  }
  process.exit(direct.status ?? 1);
}
const quote = (arg) => `'${arg.replaceAll("'", "'\\''")}'`;
const dataHome = mkdtempSync(join(tmpdir(), 'adoption-keyring-'));
const inner = `printf '\\n' | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec ${args.map(quote).join(' ')}`;
const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
  stdio: 'inherit',
  env: { ...process.env, XDG_DATA_HOME: dataHome },
});
rmSync(dataHome, { recursive: true, force: true });
if (result.error) {
  console.error(`could not start dbus-run-session: ${result.error.message}`);
  process.exit(127);
}
process.exit(result.status ?? 1);
