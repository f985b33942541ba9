/**
 * `. scripts/use-node.sh` (issue 22: the project runs on Node 22.12+, tested on 22 and 24). Sourced
 * by the README's commands and .ci/run, it keeps a supported Node, and otherwise puts Node 24 LTS
 * from the npm registry first on PATH, with its headers for native modules. Run with real Nodes:
 * a stand-in `node` that reports an old version, and the registry's Node (cached in
 * ~/.cache/adoption-desk/ after the first fetch, as .ci/run leaves it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM module of the test runner, without types
import { nodeSupported as supported } from '../../scripts/lib/prerequisites.mjs';
import { onlyOn } from '../support/platform';

const nodeSupported = supported as (version: string) => boolean;

const SCRIPT = resolve(import.meta.dirname, '../../scripts/use-node.sh');
/** The script is POSIX sh, sourced here in /bin/sh, which Windows does not have. */
const posixIt = it.skipIf(onlyOn(['linux', 'darwin'], 'sources scripts/use-node.sh in /bin/sh (not on Windows)'));
/** Where the Node on PATH is older, it fetches Node for Linux (`node-linux-<arch>`): Linux only. */
const fetchesNode = onlyOn(['linux'], 'use-node.sh fetches Node for Linux (node-linux-<arch>) only');
const linuxIt = it.skipIf(fetchesNode);
const linuxDescribe = describe.skipIf(fetchesNode);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Sources the script in sh with `bin` first on PATH and prints what it left behind. */
function source(bin: string, env: Record<string, string> = {}) {
  const result = spawnSync(
    '/bin/sh',
    ['-c', `. '${SCRIPT}' && echo "node=$(node --version)" && echo "nodedir=$npm_config_nodedir"`],
    { env: { HOME: process.env.HOME ?? '/root', PATH: `${bin}:${process.env.PATH}`, ...env }, encoding: 'utf8' },
  );
  const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(result.stdout)?.[1];
  return { status: result.status, out: result.stdout + result.stderr, node: value('node'), nodedir: value('nodedir') };
}

/**
 * A folder whose `node` is a real node made to report another version. With `machinePrefix`, npm
 * on that node finds its global config in `<machinePrefix>/etc/npmrc` (npm reads its prefix from
 * `PREFIX`), as npm on a machine's own Node finds the machine's settings beside it.
 */
function nodeReporting(version: string, machinePrefix?: string): string {
  const bin = mkdtempSync(join(tmpdir(), 'adoption-use-node-'));
  dirs.push(bin);
  const prefix = machinePrefix ? `PREFIX='${machinePrefix}' ` : '';
  writeFileSync(
    join(bin, 'node'),
    `#!/bin/sh\nif [ "$1" = --version ]; then echo v${version}; exit 0; fi\n` +
      `${prefix}exec '${process.execPath}' --import 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})' "$@"\n`,
  );
  chmodSync(join(bin, 'node'), 0o755);
  return bin;
}

describe('scripts/use-node.sh', () => {
  it('names the supported Nodes as package.json does', () => {
    expect(nodeSupported('22.12.0')).toBe(true);
    expect(nodeSupported('24.21.0')).toBe(true);
    expect(nodeSupported('22.11.9')).toBe(false);
    expect(nodeSupported('20.20.2')).toBe(false);
  });

  posixIt('keeps a supported Node that is already on PATH', () => {
    const run = source(nodeReporting('22.12.0'), { npm_config_nodedir: '/usr' });
    expect(run.status, run.out).toBe(0);
    expect(run.out).toContain('use-node: Node v22.12.0 on PATH is supported');
    expect(run.node).toBe('v22.12.0');
    expect(run.nodedir).toBe('/usr');
  });

  linuxIt('puts Node 24 LTS from the npm registry first when the one on PATH is older, with its headers', () => {
    const run = source(nodeReporting('20.20.2'));
    expect(run.status, run.out).toBe(0);
    expect(run.node).toBe('v24.21.0');
    expect(run.nodedir).toMatch(/\/adoption-desk\/node-24\.21\.0-(x64|arm64)\/node_modules\/node-linux-(x64|arm64)$/);
    // The headers native modules are built against (keytar, the policy watcher).
    expect(existsSync(join(run.nodedir ?? '', 'include/node/node_api.h'))).toBe(true);
    expect(existsSync(join(run.nodedir ?? '', 'bin', 'node'))).toBe(true);
  });

  linuxDescribe("with the machine's own npm settings (a registry mirror, the organisation's CA or proxy)", () => {
    /** A machine whose npm global config names a registry: a local one that records what it is asked. */
    async function machineWithRegistry() {
      const asked: string[] = [];
      const registry = createServer((request, response) => {
        asked.push(request.url ?? '');
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      });
      await new Promise<void>((done) => registry.listen(0, '127.0.0.1', done));
      const machine = mkdtempSync(join(tmpdir(), 'adoption-use-node-machine-'));
      dirs.push(machine);
      mkdirSync(join(machine, 'etc'));
      const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
      writeFileSync(join(machine, 'etc', 'npmrc'), `registry=${url}\n`);
      return { asked, registry, machine, url };
    }

    /** Like `source`, but without blocking this process (the registry above must answer). */
    function sourceAsync(bin: string, env: Record<string, string>, after: string) {
      return new Promise<{ status: number | null; out: string }>((done) => {
        const child = spawn('/bin/sh', ['-c', `. '${SCRIPT}' && ${after}`], {
          env: { HOME: process.env.HOME ?? '/root', PATH: `${bin}:${process.env.PATH}`, ...env },
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('close', (status) => done({ status, out }));
      });
    }

    it('fetches Node 24 from the registry the machine’s npm config names', async () => {
      const { asked, registry, machine } = await machineWithRegistry();
      try {
        const cache = mkdtempSync(join(tmpdir(), 'adoption-use-node-cache-'));
        dirs.push(cache);
        const run = await sourceAsync(nodeReporting('20.20.2', machine), { XDG_CACHE_HOME: cache }, 'true');
        // The local registry knows no Node: the fetch fails, but it was asked, not the public one.
        expect(run.status, run.out).not.toBe(0);
        expect(run.out).toContain('use-node: could not fetch Node 24.21.0');
        expect(
          asked.some((url) => /^\/node-linux-(x64|arm64)$/.test(url)),
          asked.join(' '),
        ).toBe(true);
      } finally {
        registry.close();
      }
    }, 60_000);

    it('keeps those settings for npm on the new Node', async () => {
      const { registry, machine, url } = await machineWithRegistry();
      registry.close();
      // Node 24 from the cache the earlier test filled (~/.cache/adoption-desk), no fetch here.
      const run = await sourceAsync(nodeReporting('20.20.2', machine), {}, 'node --version && npm config get registry');
      expect(run.status, run.out).toBe(0);
      expect(run.out).toContain('v24.21.0');
      expect(run.out.trim().split('\n').at(-1)).toBe(url);
    }, 60_000);
  });
});
