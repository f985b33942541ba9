/**
 * An earlier version of the app, taken from the project's git history, to test an update through
 * the browser host: `git archive <commit>` into a temporary folder with a `node_modules` link to
 * this checkout's (today's packages), its renderer built there with electron-vite, and its own
 * `electron/host/cli.ts` started as a process (support/host-process.ts, `root`). Built once per
 * Playwright worker and commit; the folder is removed when the worker ends.
 *
 * In a shallow clone (`actions/checkout` without `fetch-depth: 0`) the test is skipped, saying so
 * and how to get the history: the clone cannot hold what the test needs, and a red run would say
 * nothing about the app. A full clone without the commit is a failure (`earlierVersion` throws).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface EarlierVersion {
  commit: string;
  /** The source tree (its cli runs with this as its working directory). */
  root: string;
  /** Its built renderer. */
  rendererDir: string;
}

const git = (...args: string[]) => spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' });

/** Whether this checkout is a shallow clone (its history cut short). */
export function shallowClone(): boolean {
  return git('rev-parse', '--is-shallow-repository').stdout.trim() === 'true';
}

/** Why `commit` cannot be taken from the history here, or null. */
export function historyMissing(commit: string): string | null {
  const shallow = git('rev-parse', '--is-shallow-repository');
  if (shallow.status !== 0) return `this checkout is not a git repository (${shallow.stderr.trim()})`;
  if (git('cat-file', '-e', `${commit}^{commit}`).status === 0) return null;
  return shallow.stdout.trim() === 'true'
    ? `this checkout is a shallow clone without commit ${commit}: run \`git fetch --unshallow\` (CI: actions/checkout with fetch-depth: 0)`
    : `commit ${commit} is not in this checkout's history`;
}

const built = new Map<string, EarlierVersion>();
const folders: string[] = [];
process.once('exit', () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The earlier version at `commit`, built (once per worker). Throws when the history lacks it. */
export function earlierVersion(commit: string): EarlierVersion {
  const known = built.get(commit);
  if (known) return known;
  const missing = historyMissing(commit);
  if (missing) throw new Error(`The update test needs an earlier version from git history: ${missing}.`);
  const root = mkdtempSync(join(tmpdir(), `adoption-earlier-${commit}-`));
  folders.push(root);
  execFileSync('sh', ['-c', 'git -C "$1" archive "$2" | tar -x -C "$3"', 'sh', ROOT, commit, root]);
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const build = spawnSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const rendererDir = join(root, 'out/renderer');
  if (build.status !== 0 || !existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(
      `The earlier version ${commit} did not build with today's packages:\n${(build.stderr || build.stdout).slice(-2000)}`,
    );
  }
  const version = { commit, root, rendererDir };
  built.set(commit, version);
  return version;
}
