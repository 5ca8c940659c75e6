import { createRequire } from 'node:module';

/** resvg (a native addon) is loaded when an SVG logo is first read, not with every command that reads its config. */
const requireLazily = createRequire(import.meta.url);

/** A logo as the writers use it: PNG bytes (an SVG rasterised), with its pixel size. */
export interface LogoImage {
  png: Uint8Array;
  width: number;
  height: number;
  /** The file it came from, as the brand file named it. */
  source: string;
}

/** An SVG logo is rasterised this wide: sharp at the cover's 160 pt (about 350 dpi) and still small. */
const SVG_RASTER_WIDTH = 800;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The logo file's image, or a message saying why it cannot be one (undefined → ok).
 * SVG is rasterised once here with resvg (a Rust renderer shipped in its npm package): exceljs
 * takes no SVG, and pdfkit has no SVG support; drawing SVG as vectors (svg-to-pdfkit) would put
 * untagged paths and SVG text in fonts the PDF does not embed into a PDF/A document. One PNG
 * serves both the PDF and the workbook.
 */
export function readLogo(bytes: Buffer, source: string): LogoImage | string {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    // IHDR is the first chunk: width and height at bytes 16 and 20.
    if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return 'a PNG file whose header cannot be read';
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    const colourType = bytes[25];
    if (width === 0 || height === 0) return 'a PNG image with no pixels';
    // pdfkit reads 8-bit grey, RGB, palette and alpha PNGs; 16-bit depth and interlacing it cannot.
    if (bytes[24] !== 8 || bytes[28] !== 0) return 'a PNG that is 16-bit or interlaced; save it as an 8-bit, non-interlaced PNG';
    if (![0, 2, 3, 4, 6].includes(colourType!)) return 'a PNG of an unknown colour type';
    return { png: new Uint8Array(bytes), width, height, source };
  }
  const head = bytes.subarray(0, 2048).toString('utf8');
  if (/<svg[\s>]/i.test(head)) {
    try {
      const { Resvg } = requireLazily('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
      const rendered = new Resvg(bytes, { fitTo: { mode: 'width', value: SVG_RASTER_WIDTH }, font: { loadSystemFonts: false } }).render();
      if (rendered.width === 0 || rendered.height === 0) return 'an SVG image with no size';
      return { png: new Uint8Array(rendered.asPng()), width: rendered.width, height: rendered.height, source };
    } catch (e) {
      return `an SVG image that cannot be drawn (${(e as Error).message.split('\n')[0]})`;
    }
  }
  return 'neither a PNG nor an SVG image';
}
