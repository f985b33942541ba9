/**
 * The OS keychain as the Electron e2e project reaches it: every keychain operation of the tests
 * (seeding a profile's key, reading what the app saved, deleting it afterwards) is run by the
 * Electron binary under test itself, as Node (`ELECTRON_RUN_AS_NODE=1`, the development binary's
 * RunAsNode fuse is on), loading the project's keytar (N-API, so the one build loads in Node and in
 * Electron: STACK-NOTES) through keychain-in-electron.mjs.
 *
 * Why: on macOS a keychain item is trusted only by the binary that wrote it (keytar's
 * SecKeychainAddGenericPassword gives the new item an access list naming the creating
 * application); when another binary reads it, macOS asks the person at the screen ("… wants to use
 * your confidential information"), and on a CI runner that prompt blocks the run until the test
 * times out. A key written by this Node process and read by the app, or the other way round,
 * crosses binaries; through the same executable it never does. Linux and Windows have no such
 * access lists, but take the same path, so the Linux job exercises the path macOS needs.
 *
 * The packaged app cannot be used that way (its RunAsNode fuse is off): its spec gives the key
 * through the app's own screen instead (test/e2e/packaged/packaged-app.spec.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createKeytarSecretStore, type KeytarLike } from '../../../electron/core/keys/keytar-secret-store';
import type { SecretStore } from '../../../electron/core/keys/secret-store';

const HELPER = join(import.meta.dirname, 'keychain-in-electron.mjs');

type Answer = { ok: true; value: string | boolean | null } | { ok: false; message: string };

/** Runs one operation with `executable` as Node; rejects with keytar's own message when keytar threw. */
function runHelper(executable: string, args: string[], input = ''): Promise<string | boolean | null> {
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  // Nothing of the test runner's own loaders (Playwright, tsx) preloaded into it.
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [HELPER, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      let answer: Answer;
      try {
        answer = JSON.parse(line) as Answer;
      } catch {
        reject(
          new Error(`the keychain helper ended (${code ?? signal}) without an answer: ${err.trim() || out.trim()}`),
        );
        return;
      }
      if (answer.ok) resolve(answer.value);
      else reject(new Error(answer.message));
    });
    // A helper that ends before reading its input (one that cannot start, or answers nothing)
    // makes this write fail with EPIPE: the answer, or its absence, is judged on 'close' above.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** keytar's three calls, each run by `executable` as Node. */
export function keytarThrough(executable: string): KeytarLike {
  return {
    getPassword: async (service, account) => (await runHelper(executable, ['get', service, account])) as string | null,
    setPassword: async (service, account, password) => {
      await runHelper(executable, ['set', service, account], password);
    },
    deletePassword: async (service, account) => (await runHelper(executable, ['delete', service, account])) as boolean,
  };
}

/** The keychain entry `service` as a SecretStore, every call run by the Electron binary `executable`. */
export function openKeychainThrough(executable: string, service: string): SecretStore {
  return createKeytarSecretStore({ keytar: keytarThrough(executable), service });
}
