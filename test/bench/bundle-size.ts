/**
 * Renderer bundle (issue 7, bench 4; issue 24): raw and gzip (level 9) sizes of the built
 * renderer's JavaScript and CSS in `out/renderer/assets` (`npm run bench` builds first), and of
 * its start-up JavaScript: the entry script and the chunks `index.html` preloads (the steps of
 * src/main.ts), which is all the JavaScript a window fetches before its first rows. Each file is
 * gzipped on its own, as a server or a cache would.
 * Goals: start-up JavaScript ≤ 110 KiB gzipped (issue 32: the build without plugins that rewrite the
 * source; issue 24's 100 no longer holds with two languages); all of it under 120 KiB (issue 7, not met
 * since the languages: docs/performance.md, Languages).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Bench, BenchResult } from './lib/report';

const RENDERER = resolve(import.meta.dirname, '../../out/renderer');
const ASSETS = join(RENDERER, 'assets');
const GOAL_START_GZIP_KIB = 110;
const GOAL_JS_GZIP_KIB = 120;

interface Sizes {
  files: number;
  raw: number;
  gzip: number;
}

async function sizesOf(names: readonly string[]): Promise<Sizes> {
  let raw = 0;
  let gzip = 0;
  for (const name of names) {
    const bytes = await readFile(join(ASSETS, name));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: names.length, raw, gzip };
}

/** The scripts index.html loads or preloads: `<script src>` and `<link rel="modulepreload" href>`. */
export function startupScripts(html: string): string[] {
  const names = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="\.\/assets\/([^"]+\.js)"/.exec(tag)?.[1];
    if ((isScript || isPreload) && url) names.add(url);
  }
  return [...names];
}

export async function benchBundleSize(): Promise<BenchResult> {
  const all = await readdir(ASSETS).catch((error: unknown) => {
    throw new Error(`no built renderer in ${ASSETS} (run npm run build): ${String(error)}`);
  });
  const jsNames = all.filter((name) => name.endsWith('.js'));
  if (jsNames.length === 0) throw new Error(`no JavaScript in ${ASSETS} (run npm run build)`);
  const startNames = startupScripts(await readFile(join(RENDERER, 'index.html'), 'utf8'));
  const missing = startNames.filter((name) => !jsNames.includes(name));
  if (startNames.length === 0 || missing.length > 0) {
    throw new Error(`index.html names no start-up script, or one not built: ${missing.join(', ')}`);
  }
  const js = await sizesOf(jsNames);
  const start = await sizesOf(startNames);
  const css = await sizesOf(all.filter((name) => name.endsWith('.css')));
  const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return {
    name: 'bundle-size',
    description: 'renderer bundle, out/renderer/assets, gzip -9 per file; start-up = what index.html loads',
    figures: {
      startJsGzipKiB: kib(start.gzip),
      startJsRawKiB: kib(start.raw),
      startJsFiles: start.files,
      jsGzipKiB: kib(js.gzip),
      cssGzipKiB: kib(css.gzip),
      jsRawKiB: kib(js.raw),
      cssRawKiB: kib(css.raw),
      jsFiles: js.files,
      cssFiles: css.files,
      startMeetsGoal: start.gzip <= GOAL_START_GZIP_KIB * 1024 ? 1 : 0,
      jsMeetsGoal: js.gzip < GOAL_JS_GZIP_KIB * 1024 ? 1 : 0,
    },
    settings: {
      dir: 'out/renderer/assets',
      gzipLevel: 9,
      startFiles: startNames.join(' '),
      goal: `start-up JavaScript ≤ ${GOAL_START_GZIP_KIB} KiB gzipped; all of it under ${GOAL_JS_GZIP_KIB} KiB`,
    },
  };
}

export const bundleSizeBench: Bench = { name: 'bundle-size', run: benchBundleSize };
