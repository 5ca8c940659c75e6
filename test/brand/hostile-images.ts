/** Hostile logos for the brand tests (issue 35): SVGs and PNGs an attacker with a brand file would write. */
import { deflateSync } from 'node:zlib';

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
export const svg = (attrs: string, body: string) => `<svg ${SVG_NS} ${attrs}>${body}</svg>`;

export const HOSTILE_SVGS = {
  /** 100 wide, a million tall: 800 × 8,000,000 pixels at the raster width. */
  tall: svg('width="100" height="1000000"', '<rect width="100" height="1000000" fill="#123"/>'),
  /** A viewBox of 1 × 2000: 800 × 1,600,000 pixels. */
  thinViewBox: svg('viewBox="0 0 1 2000"', '<rect width="1" height="2000" fill="#123"/>'),
  /** 200 rectangles, each blurred. */
  blurred: svg(
    'width="400" height="400"',
    `<filter id="b"><feGaussianBlur stdDeviation="8"/></filter>${Array.from({ length: 200 }, (_, i) => `<rect x="${i}" y="${i}" width="300" height="300" filter="url(#b)"/>`).join('')}`,
  ),
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG declaring `width` × `height`, its image data `inflated` bytes of zeros (compressed). */
export function png(width: number, height: number, inflated: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(inflated), { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

export const HOSTILE_PNGS = {
  /** Declares 20,000 × 20,000 (1.2 GB decoded) in a file of a few bytes. */
  huge: () => png(20_000, 20_000, 1_000),
  /** Declares 100 × 100 (30,100 bytes of rows) but its data inflates to 64 MB. */
  bomb: () => png(100, 100, 64 << 20),
};

/** A baseline JPEG header declaring `width` × `height` (SOI, SOF0, EOI): enough for a header reader. */
export function jpeg(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0, 0, 0, 0, 0x01, 0x01, 0x11, 0x00]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}
