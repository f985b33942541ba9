/**
 * The app icon: resources/icon.svg rendered by `npm run icons` (scripts/packaging/make-icons.ts)
 * into the PNGs, the .ico and the .icns electron-builder packs, all read back here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeIcns, decodeIco, ICNS_TYPES, pngSize } from '../../scripts/packaging/icon-containers';

const RESOURCES = resolve(import.meta.dirname, '../../resources');
const read = (name: string) => readFileSync(join(RESOURCES, name));

describe('app icons', () => {
  it('has the SVG source and square PNGs of 512 and 256 px (and the rest for Linux)', () => {
    expect(read('icon.svg').toString()).toMatch(/^<svg [^>]*viewBox="0 0 1024 1024"/);
    expect(pngSize(read('icon.png'))).toEqual({ width: 512, height: 512 });
    for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(read(`icons/${size}x${size}.png`)), `${size}`).toEqual({ width: size, height: size });
    }
  });

  it('has a Windows .ico of PNG entries from 16 to 256 px', () => {
    const entries = decodeIco(read('icon.ico'));
    expect(entries.map((e) => e.width)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const entry of entries) expect(pngSize(entry.data)).toEqual({ width: entry.width, height: entry.height });
  });

  it('has a macOS .icns whose every element is a PNG of the size its type says', () => {
    const elements = decodeIcns(read('icon.icns'));
    expect(elements.map((e) => e.type)).toEqual(ICNS_TYPES.map(([type]) => type));
    for (const element of elements) {
      const size = ICNS_TYPES.find(([type]) => type === element.type)![1];
      expect(pngSize(element.data), element.type).toEqual({ width: size, height: size });
    }
  });
});
