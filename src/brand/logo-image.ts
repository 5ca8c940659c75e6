import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { svgProblem } from './svg-safety';
import { rasteriseSvg } from './svg-raster';

/** resvg (a native addon) is resolved when an SVG logo is first read, not with every command that reads its config. */
const requireLazily = createRequire(import.meta.url);

/** A logo as the writers use it: PNG bytes (an SVG rasterised), with its pixel size. */
export interface LogoImage {
  png: Uint8Array;
  width: number;
  height: number;
  /** The file it came from, as the brand file named it. */
  source: string;
}

/**
 * Hard limits on a logo (issue 35): a logo is drawn at most 160 pt wide, so anything larger is
 * a mistake or an attack, and decoding it would take memory for every pixel (a PNG declaring
 * 20,000 × 20,000 is 1.6 GB decoded; an SVG of height="1000000" rasterised is 3 TB).
 */
export interface LogoLimits {
  /** width × height of the image as drawn (an SVG after its viewBox is fitted to the raster width). */
  maxPixels: number;
  /** Either side. */
  maxSide: number;
  /** Rendering an SVG takes at most this long (ms), in a worker thread stopped when it is up. */
  renderMs: number;
}

export const LOGO_LIMITS: LogoLimits = { maxPixels: 16_000_000, maxSide: 8_192, renderMs: 10_000 };

/** An SVG logo is rasterised this wide: sharp at the cover's 160 pt (about 350 dpi) and still small. */
const SVG_RASTER_WIDTH = 800;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Channels per PNG colour type (grey, RGB, palette, grey + alpha, RGBA). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

const megapixels = (n: number) => `${(n / 1_000_000).toLocaleString('en-GB', { maximumFractionDigits: 1 })} megapixels`;

/** Why `width × height` is over the limits, or undefined. */
function sizeProblem(width: number, height: number, limits: LogoLimits): string | undefined {
  const size = `${width.toLocaleString('en-GB')} × ${height.toLocaleString('en-GB')} pixels`;
  if (width > limits.maxSide || height > limits.maxSide) return `${size}, over the limit of ${limits.maxSide.toLocaleString('en-GB')} pixels a side`;
  if (width * height > limits.maxPixels) return `${size} (${megapixels(width * height)}), over the limit of ${megapixels(limits.maxPixels)}`;
  return undefined;
}

/**
 * The logo file's image, or a message saying why it cannot be one (undefined → ok).
 * SVG is rasterised once here with resvg (a Rust renderer shipped in its npm package): exceljs
 * takes no SVG, and pdfkit has no SVG support; drawing SVG as vectors (svg-to-pdfkit) would put
 * untagged paths and SVG text in fonts the PDF does not embed into a PDF/A document. One PNG
 * serves both the PDF and the workbook.
 */
export function readLogo(bytes: Buffer, source: string, limits: LogoLimits = LOGO_LIMITS): LogoImage | string {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return readPng(bytes, source, limits);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const size = jpegSize(bytes);
    const over = size && sizeProblem(size.width, size.height, limits);
    return over ? `a JPEG image of ${over}` : 'a JPEG image; give an SVG or PNG image (the reports embed PNG)';
  }
  const head = bytes.subarray(0, 2048).toString('utf8');
  if (/<svg[\s>]/i.test(head)) return readSvg(bytes, source, limits);
  return 'neither a PNG nor an SVG image';
}

/**
 * A PNG is checked from its header, before any pixel is decoded: its declared size against the
 * limits, then its image data inflated no further than that size needs (a small file whose data
 * inflates to gigabytes is refused when it passes what its pixels need, not after).
 */
function readPng(bytes: Buffer, source: string, limits: LogoLimits): LogoImage | string {
  // IHDR is the first chunk: width and height at bytes 16 and 20.
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return 'a PNG file whose header cannot be read';
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const colourType = bytes[25]!;
  if (width === 0 || height === 0) return 'a PNG image with no pixels';
  const over = sizeProblem(width, height, limits);
  if (over) return `a PNG image of ${over}`;
  // pdfkit reads 8-bit grey, RGB, palette and alpha PNGs; 16-bit depth and interlacing it cannot.
  if (bytes[24] !== 8 || bytes[28] !== 0) return 'a PNG that is 16-bit or interlaced; save it as an 8-bit, non-interlaced PNG';
  const channels = PNG_CHANNELS[colourType];
  if (channels === undefined) return 'a PNG of an unknown colour type';
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    if (at + 12 > bytes.length) return 'a PNG file that ends inside a chunk';
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) return 'a PNG file that ends inside a chunk';
    if (type === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
    if (type === 'IEND') break;
  }
  // Each row: a filter byte, then its pixels.
  const needed = height * (1 + width * channels);
  try {
    const pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: needed });
    if (pixels.length < needed) return `a PNG whose image data is shorter than its ${width} × ${height} pixels need`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      return `a PNG whose image data inflates to more than its ${width.toLocaleString('en-GB')} × ${height.toLocaleString('en-GB')} pixels need (${needed.toLocaleString('en-GB')} bytes; a decompression bomb)`;
    }
    return 'a PNG whose image data cannot be read';
  }
  return { png: new Uint8Array(bytes), width, height, source };
}

/** A JPEG's size, from its first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC), undefined when none is found. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

function readSvg(bytes: Buffer, source: string, limits: LogoLimits): LogoImage | string {
  const unsafe = svgProblem(bytes.toString('utf8'));
  if (unsafe) return `an SVG image that ${unsafe}`;
  const drawn = rasteriseSvg(bytes, { resvg: requireLazily.resolve('@resvg/resvg-js'), width: SVG_RASTER_WIDTH, renderMs: limits.renderMs, maxSide: limits.maxSide, maxPixels: limits.maxPixels });
  switch (drawn.kind) {
    case 'png':
      return { png: drawn.png, width: drawn.width, height: drawn.height, source };
    case 'empty':
      return 'an SVG image with no size';
    case 'too-large':
      return `an SVG image of ${sizeProblem(drawn.width, drawn.height, limits)} once its viewBox is fitted to ${SVG_RASTER_WIDTH} pixels wide`;
    case 'too-slow':
      return `an SVG image that took longer than the ${(limits.renderMs / 1000).toLocaleString('en-GB')} s limit to draw; it was stopped`;
    case 'failed':
      return `an SVG image that cannot be drawn (${drawn.why})`;
  }
}
