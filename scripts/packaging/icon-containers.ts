// The two icon containers, written and read back (the packaging tests read them), both simple
// wrappers around PNG payloads.

/**
 * ICO: ICONDIR (reserved 0, type 1, count), then one 16-byte ICONDIRENTRY per image (width,
 * height; 0 means 256; colours, reserved, planes 1, 32 bits per pixel, byte size, offset),
 * then the PNGs. `entries`: [size, png][].
 */
export function encodeIco(entries: [number, Buffer][]): Buffer {
  const header = Buffer.alloc(6 + 16 * entries.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(([size, png], index) => {
    const at = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...entries.map(([, png]) => png)]);
}

export function decodeIco(buffer: Buffer): { width: number; height: number; data: Buffer }[] {
  if (buffer.readUInt16LE(0) !== 0 || buffer.readUInt16LE(2) !== 1) throw new Error('not an ICO file');
  return Array.from({ length: buffer.readUInt16LE(4) }, (_, index) => {
    const at = 6 + 16 * index;
    const size = buffer.readUInt32LE(at + 8);
    const offset = buffer.readUInt32LE(at + 12);
    return { width: buffer[at] || 256, height: buffer[at + 1] || 256, data: buffer.subarray(offset, offset + size) };
  });
}

/** ICNS element types holding PNG data, and the pixel size of each (Apple's icns format). */
export const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic07', 128],
  ['ic13', 256], // 128@2x
  ['ic08', 256],
  ['ic14', 512], // 256@2x
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
];

/** ICNS: 'icns' + total length (big-endian), then per element: type, length (incl. 8), PNG. */
export function encodeIcns(pngsBySize: Map<number, Buffer>): Buffer {
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = pngsBySize.get(size);
    if (!png) throw new Error(`no ${size} px PNG for ${type}`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + elements.reduce((sum, element) => sum + element.length, 0), 4);
  return Buffer.concat([head, ...elements]);
}

export function decodeIcns(buffer: Buffer): { type: string; data: Buffer }[] {
  if (buffer.toString('ascii', 0, 4) !== 'icns' || buffer.readUInt32BE(4) !== buffer.length) {
    throw new Error('not an ICNS file');
  }
  const elements: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < buffer.length;) {
    const length = buffer.readUInt32BE(at + 4);
    elements.push({ type: buffer.toString('ascii', at, at + 4), data: buffer.subarray(at + 8, at + length) });
    at += length;
  }
  return elements;
}

/** Width and height from a PNG's IHDR, or null when `data` is not a PNG. */
export function pngSize(data: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (data.subarray(0, 8).toString('hex') !== signature || data.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}
