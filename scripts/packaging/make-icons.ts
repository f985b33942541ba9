// `npm run icons` (tsx): renders resources/icon.svg with Debian's Chromium (through Playwright, no
// download) into the icons electron-builder packs, all committed so packaging needs no browser:
//   resources/icons/NxN.png  Linux (AppImage, deb), 16…1024
//   resources/icon.png       512×512, the window and the Linux fallback
//   resources/icon.ico       Windows: PNG entries 16…256 (ICO container, PNG payloads: Vista+)
//   resources/icon.icns      macOS: PNG entries icp4…ic14 (ICNS container, PNG payloads: 10.7+)
import { chromium } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeIcns, encodeIco } from './icon-containers';

const ROOT = resolve(import.meta.dirname, '../..');
const RESOURCES = join(ROOT, 'resources');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

async function render(svg: string): Promise<Map<number, Buffer>> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    const pngs = new Map<number, Buffer>();
    for (const size of SIZES) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        `<html><body style="margin:0;background:transparent"><img src="${source}" width="${size}" height="${size}" style="display:block"></body></html>`,
      );
      await page.locator('img').evaluate((img) => (img as HTMLImageElement).decode());
      pngs.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
    }
    return pngs;
  } finally {
    await browser.close();
  }
}

const pngs = await render(readFileSync(join(RESOURCES, 'icon.svg'), 'utf8'));
mkdirSync(join(RESOURCES, 'icons'), { recursive: true });
for (const [size, png] of pngs) writeFileSync(join(RESOURCES, 'icons', `${size}x${size}.png`), png);
const png = (size: number): Buffer => {
  const data = pngs.get(size);
  if (!data) throw new Error(`no ${size} px render`);
  return data;
};
writeFileSync(join(RESOURCES, 'icon.png'), png(512));
writeFileSync(
  join(RESOURCES, 'icon.ico'),
  encodeIco([16, 24, 32, 48, 64, 128, 256].map((size): [number, Buffer] => [size, png(size)])),
);
writeFileSync(join(RESOURCES, 'icon.icns'), encodeIcns(pngs));
console.log(`icons written to ${RESOURCES}: ${SIZES.join(', ')} px PNG, icon.ico, icon.icns`);
