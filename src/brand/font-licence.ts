import * as fontkit from 'fontkit';

/**
 * OS/2 fsType bits (OpenType spec): bits 0–3 are the embedding level. 0x0002 "Restricted
 * License embedding" forbids embedding the font in a document at all; the other levels
 * (installable, preview & print, editable) allow a PDF to carry it. Bit 0x0100 "no subsetting"
 * forbids embedding less than the whole font, and pdfkit always embeds a subset; bit 0x0200
 * "bitmap embedding only" forbids embedding the outlines pdfkit writes.
 */
const RESTRICTED = 0x0002;
const NO_SUBSETTING = 0x0100;
const BITMAP_ONLY = 0x0200;

export interface BrandFont {
  /** The file, as the brand file named it (relative) and resolved. */
  source: string;
  path: string;
  bytes: Uint8Array;
}

/** undefined when the font can be subset and embedded; otherwise why not, for the user. */
export function fontProblem(bytes: Buffer): string | undefined {
  let font: fontkit.Font;
  try {
    const parsed = fontkit.create(bytes);
    if (!('hasGlyphForCodePoint' in parsed)) return 'a font collection; give one TTF or OTF font';
    font = parsed as fontkit.Font;
  } catch (e) {
    return `not a TTF or OTF font that can be read (${(e as Error).message})`;
  }
  // Every table first: a damaged one is named before any check reads it.
  const damaged = tableProblem(font);
  if (damaged) return damaged;
  try {
    return licenceProblem(font);
  } catch {
    return 'a font that cannot be read whole (the file is damaged)';
  }
}

function licenceProblem(font: fontkit.Font): string | undefined {
  const os2 = (font as unknown as { 'OS/2'?: { fsType?: number | Record<string, boolean> } })['OS/2'];
  const fsType = rawFsType(os2?.fsType);
  if (fsType !== undefined && (fsType & 0x000f) === RESTRICTED) {
    return 'a font whose licence forbids embedding (OS/2 fsType "Restricted License embedding"); a PDF must embed its fonts, so ask the foundry for an embeddable licence or choose another font';
  }
  if (fsType !== undefined && fsType & NO_SUBSETTING) return 'a font whose licence forbids subsetting (OS/2 fsType 0x0100); the reports embed only the characters they use, so ask the foundry for a licence that allows subsetting or choose another font';
  if (fsType !== undefined && fsType & BITMAP_ONLY) return 'a font whose licence allows bitmap embedding only (OS/2 fsType 0x0200); a PDF embeds outlines, so choose another font';
  if (!font.hasGlyphForCodePoint(0x41) || !font.hasGlyphForCodePoint(0x61)) return 'a font without Latin letters';
  return outlineProblem(font);
}

/** Characters whose outlines are drawn at the check: letters, figures, the currency signs and punctuation the reports print. */
const SAMPLE = 'AaBbGgMmQqRrWwZz0123456789 .,:;%()-–—+/€£$¥&@';

/**
 * The whole font read now (issue 35), not first when a writer draws a client's PDF: every table
 * fontkit decodes, then (outlineProblem) the outlines and layout of a sample. A damaged font fails
 * the brand check and the run before any call to the service, naming the table.
 */
function tableProblem(font: fontkit.Font): string | undefined {
  const tables = Object.keys((font as unknown as { directory: { tables: Record<string, unknown> } }).directory.tables);
  for (const tag of tables) {
    // fontkit decodes a table it knows on first access (a getter per tag), and answers undefined when decoding fails.
    const known = tag in font;
    let decoded: unknown;
    try {
      decoded = (font as unknown as Record<string, unknown>)[tag];
    } catch {
      decoded = undefined;
    }
    // glyf is read glyph by glyph (its outlines are checked below), never as a whole table.
    if (known && decoded == null && tag !== 'glyf') return `a font whose ${tag.trim()} table cannot be read (the file is damaged)`;
  }
  return undefined;
}

function outlineProblem(font: fontkit.Font): string | undefined {
  try {
    for (const ch of SAMPLE) {
      const glyph = font.glyphForCodePoint(ch.codePointAt(0)!);
      void glyph.path.commands.length;
      void glyph.advanceWidth;
    }
    void font.layout(SAMPLE).glyphs.length;
  } catch {
    return 'a font whose glyph outlines cannot be read (the file is damaged)';
  }
  return undefined;
}

/** fontkit decodes fsType as a bitfield object in some versions and a number in others. */
function rawFsType(v: number | Record<string, boolean> | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (!v || typeof v !== 'object') return undefined;
  // fontkit's bitfield names, in bit order from bit 0 (its OS/2 table definition).
  const names = ['reserved', 'noEmbedding', 'viewOnly', 'editable', null, null, null, null, 'noSubsetting', 'bitmapOnly'];
  return names.reduce((n, name, bit) => (name && v[name] ? n | (1 << bit) : n), 0);
}
