import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/package-root';
import * as fontkit from 'fontkit';
import type { Brand, BrandFont } from '../../src/brand';

/** Font roles used by the PDF writers, mapped to the TTF files shipped in reports/fonts/. */
export const FONT_FILES = {
  serif: 'DejaVuSerif.ttf',
  serifBold: 'DejaVuSerif-Bold.ttf',
  sans: 'DejaVuSansCondensed.ttf',
  sansBold: 'DejaVuSansCondensed-Bold.ttf',
} as const;
export type FontRole = keyof typeof FONT_FILES;

/**
 * reports/fonts in this package (source or compiled); failing that, under the working directory. Never the system's fonts: the PDF must look the same on every machine.
 */
function fontDir(): string {
  const candidates = [path.join(packageRoot(), 'reports/fonts'), path.resolve('reports/fonts')];
  const found = candidates.find((dir) => existsSync(path.join(dir, FONT_FILES.serif)));
  if (!found) throw new Error(`The report fonts are missing: looked for ${FONT_FILES.serif} in ${candidates.join(' and ')}.`);
  return found;
}

/** The file of a house font (the web page subsets it: html-fonts.ts). */
export const houseFontPath = (role: FontRole): string => path.join(fontDir(), FONT_FILES[role]);

type ParsedFont = ReturnType<typeof fontkit.create>;

/**
 * OpenType shaping switched off (fontkit applies these by default): report text is Latin prose
 * and figures, which DejaVu sets well without kerning or ligatures, and shaping was a third of
 * the time of a client PDF. Plain glyphs also extract cleanly (no "ﬁ" ligatures) for pdftotext.
 */
const PLAIN_TEXT = Object.fromEntries(
  ['kern', 'liga', 'clig', 'calt', 'ccmp', 'locl', 'rlig', 'mark', 'mkmk', 'rclt', 'curs', 'dlig'].map((f) => [f, false]),
);

/**
 * A `features` marker a caller passes to pdfkit's text() for a run that must be shaped (Arabic:
 * joining forms and the lam-alef ligature are the letters themselves, not a nicety); it
 * also lays the run out right to left: the caller gives it in logical order, one bidi level, its
 * mirrored characters already swapped (fontkit reverses glyphs, but neither mirrors brackets nor
 * reorders levels). An array, so pdfkit lays the run out whole rather than word by word.
 */
export const SHAPED_RTL: string[] = [];

/** Shaped runs a font keeps (a report's distinct Arabic words and lines, with room to spare). */
const SHAPED_RUNS_KEPT = 20_000;

/**
 * `font` with fontkit's layout honouring SHAPED_RTL; other runs laid out with `otherwise` (the
 * fallback fonts keep fontkit's default features: CJK text wants its `locl`, `ccmp`).
 */
export function withShapingMarkers<F>(font: F, otherwise?: Record<string, boolean>): F {
  keepCodePoints(font);
  const f = font as unknown as { layout: (text: string, features?: unknown, script?: string, language?: string, direction?: string) => unknown };
  const layout = f.layout.bind(font);
  // Shaped runs kept by text: fontkit plans the shaping anew at every call (most of an Arabic
  // page's time), and a line is measured while it is broken, then measured and drawn again.
  // pdfkit scales a run's positions in place, so each caller gets its own positions.
  const shaped = new Map<string, object>();
  f.layout = (text, features) => {
    if (features !== SHAPED_RTL) return layout(text, features ?? otherwise);
    const known = shaped.get(text);
    if (known) return freshPositions(known);
    if (shaped.size >= SHAPED_RUNS_KEPT) shaped.clear();
    const run = layout(text, undefined, undefined, undefined, 'rtl') as { glyphs: { id: number; advanceWidth: number; codePoints: number[] }[] };
    shaped.set(text, run);
    // A ligature (lam-alef) maps back to its letters in visual order, as its neighbours do:
    // a reader reversing the right-to-left run then reads them in logical order. The glyph
    // objects are fontkit's shared ones, so the run gets copies.
    run.glyphs = run.glyphs.map((g) => (g.codePoints.length > 1 ? { id: g.id, advanceWidth: g.advanceWidth, codePoints: [...g.codePoints].reverse() } : g));
    return freshPositions(run);
  };
  return font;
}

interface GlyphSource {
  getGlyph(id: number, codePoints?: number[]): { codePoints: number[] } | null;
}

/**
 * fontkit keeps one glyph object per glyph id, with the code points of the call that first made
 * it. Subsetting a composite glyph (an accented letter: "ŕ" is "r" and an acute) makes its
 * components without code points; every later document then maps "r" to nothing in its text
 * layer ("Übersicht" read back as "Übe icht" after an en-XA report in the same process). A glyph
 * met without code points takes those of the first call that names them.
 */
function keepCodePoints(font: unknown): void {
  const f = font as GlyphSource;
  const getGlyph = f.getGlyph.bind(f);
  f.getGlyph = (id, codePoints = []) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && glyph.codePoints.length === 0 && codePoints.length > 0) glyph.codePoints = codePoints;
    return glyph;
  };
}

/** The run as fontkit made it (its class, for its advanceWidth), with positions of its own. */
function freshPositions(run: object): object {
  const { positions } = run as { positions: object[] };
  return Object.assign(Object.create(Object.getPrototypeOf(run) as object) as object, run, { positions: positions.map((p) => ({ ...p })) });
}

const withoutShaping = <F>(font: F): F => withShapingMarkers(font, PLAIN_TEXT);
let cache: Record<FontRole, ParsedFont> | undefined;
/** A firm's fonts, parsed once per process (keyed by file and size: a worker gets a copy of the bytes per job). */
const brandCache = new Map<string, ParsedFont>();

function houseFonts(): Record<FontRole, ParsedFont> {
  if (!cache) {
    const dir = fontDir();
    cache = Object.fromEntries(Object.entries(FONT_FILES).map(([role, file]) => [role, withoutShaping(fontkit.create(readFileSync(path.join(dir, file))))])) as Record<FontRole, ParsedFont>;
  }
  return cache;
}

/** One of the house fonts, parsed (the signature's seal embeds a subset of it: reports/signoff/sign/seal-font.ts). */
export const houseFont = (role: FontRole): ParsedFont => houseFonts()[role];

function brandFont(f: BrandFont): ParsedFont {
  const key = `${f.path}:${f.bytes.byteLength}`;
  let font = brandCache.get(key);
  if (!font) brandCache.set(key, (font = withoutShaping(fontkit.create(Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength)))));
  return font;
}

/** The registered name of the house font behind a role, when a brand's font took the role. */
export const houseFontName = (role: string) => `house-${role}`;

/**
 * Reads and parses the font files once per process; each document registers the parsed fonts
 * (pdfkit accepts a fontkit font) and embeds its own subset. Parsing per document would cost
 * a client PDF more than drawing it. A brand's regular font takes the regular roles (serif and
 * sans), its bold the bold ones; the house fonts stay registered under houseFontName() as the
 * first fallback for characters the firm's font lacks. Returns whether a brand font is in use.
 */
export function registerFonts(doc: PDFKit.PDFDocument, brand?: Pick<Brand, 'fontRegular' | 'fontBold'>): boolean {
  const house = houseFonts();
  const regular = brand?.fontRegular && brandFont(brand.fontRegular);
  const bold = brand?.fontBold && brandFont(brand.fontBold);
  const firstRole = new Map<ParsedFont, string>();
  const aliases: [string, string][] = [];
  // @types/pdfkit lists paths and buffers only; pdfkit itself takes any object with layout().
  for (const [role, font] of Object.entries(house) as [FontRole, ParsedFont][]) {
    const firm = role.endsWith('Bold') ? bold : regular;
    const src = firm ?? font;
    doc.registerFont(role, src as unknown as Buffer);
    if (firstRole.has(src)) aliases.push([role, firstRole.get(src)!]);
    else firstRole.set(src, role);
    if (firm) doc.registerFont(houseFontName(role), font as unknown as Buffer);
  }
  shareEmbeddedFonts(doc, aliases);
  return Boolean(regular || bold);
}

/**
 * A firm's one font in two roles (serif and sans): pdfkit, switching to the second name, finds
 * the first by its PostScript name, compares the two (serialising their name tables) and caches
 * neither, on every switch — a third of a client PDF's time. The second name is pointed at the
 * first's embedded font instead (one font object, embedded once, only if used).
 */
function shareEmbeddedFonts(doc: PDFKit.PDFDocument, aliases: [string, string][]): void {
  const families = (doc as unknown as { _fontFamilies: Record<string, unknown> })._fontFamilies;
  for (const [alias, first] of aliases) {
    doc.font(first);
    families[alias] = families[first];
  }
}
