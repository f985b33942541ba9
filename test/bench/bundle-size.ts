/**
 * Renderer bundle (issue 7, bench 4): raw and gzip (level 9) sizes of the built renderer's
 * JavaScript and CSS in `out/renderer/assets` (`npm run bench` builds first).
 * Goal: under 120 KiB of gzipped JavaScript.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Bench, BenchResult } from './lib/report';

const ASSETS = resolve(import.meta.dirname, '../../out/renderer/assets');
const GOAL_JS_GZIP_KIB = 120;

async function sizes(extension: string): Promise<{ files: number; raw: number; gzip: number }> {
  const names = (await readdir(ASSETS)).filter((name) => name.endsWith(extension));
  let raw = 0;
  let gzip = 0;
  for (const name of names) {
    const bytes = await readFile(join(ASSETS, name));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: names.length, raw, gzip };
}

export async function benchBundleSize(): Promise<BenchResult> {
  const js = await sizes('.js').catch((error: unknown) => {
    throw new Error(`no built renderer in ${ASSETS} (run npm run build): ${String(error)}`);
  });
  const css = await sizes('.css');
  if (js.files === 0) throw new Error(`no JavaScript in ${ASSETS} (run npm run build)`);
  const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return {
    name: 'bundle-size',
    description: 'renderer bundle, out/renderer/assets, gzip -9',
    figures: {
      jsGzipKiB: kib(js.gzip),
      cssGzipKiB: kib(css.gzip),
      jsRawKiB: kib(js.raw),
      cssRawKiB: kib(css.raw),
      jsFiles: js.files,
      cssFiles: css.files,
      jsMeetsGoal: js.gzip < GOAL_JS_GZIP_KIB * 1024 ? 1 : 0,
    },
    settings: { dir: 'out/renderer/assets', gzipLevel: 9, goal: `JavaScript under ${GOAL_JS_GZIP_KIB} KiB gzipped` },
  };
}

export const bundleSizeBench: Bench = { name: 'bundle-size', run: benchBundleSize };
