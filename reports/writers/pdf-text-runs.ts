/**
 * Text in any of Latin, Greek, Cyrillic, Chinese, Japanese and Korean with real glyphs: each
 * string is split into runs by which font has its characters, DejaVu first (the house look),
 * then Noto Sans CJK (JP, TC, SC, KR) from the @embedpdf/fonts-* npm packages (SIL OFL 1.1,
 * which allows embedding), and each run is drawn in its own font. pdfkit embeds only the glyphs
 * used, and only fonts a report needs are parsed (a Latin-only report never opens them).
 *
 * Right-to-left scripts (Hebrew, Arabic) need bidirectional reordering and Arabic shaping, which
 * pdfkit does not do: such text is drawn in stored order and a warning says so, instead of a
 * silently garbled report. Characters no font has are warned about too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

/** A single font (never a collection: every file here is one font). */
type ParsedFont = fontkit.Font;

interface FallbackFont {
  key: string;
  pkg: string;
  regular: string;
  bold: string;
}

/** The CJK fallbacks; all four also carry Latin, Greek and Cyrillic glyphs. */
const FALLBACKS: readonly FallbackFont[] = [
  { key: 'jp', pkg: '@embedpdf/fonts-jp', regular: 'NotoSansJP-Regular.otf', bold: 'NotoSansJP-Bold.otf' },
  { key: 'tc', pkg: '@embedpdf/fonts-tc', regular: 'NotoSansHant-Regular.otf', bold: 'NotoSansHant-Bold.otf' },
  { key: 'sc', pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  { key: 'kr', pkg: '@embedpdf/fonts-kr', regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' },
];

const KANA = /[\u3040-\u30ff\u31f0-\u31ff]/;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;
/** Hebrew, Arabic, Syriac, Thaana, NKo and their presentation forms. */
export const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
/** Anything beyond Latin-1 and Latin Extended needs a coverage check; most report text is below. */
const SIMPLE = /^[\u0000-\u024f\u2000-\u20cf\u2190-\u21ff\u2500-\u25ff]*$/;

/**
 * Text quoted in a warning: control, bidirectional-override and line-separator characters as
 * \uXXXX (a name must not colour the terminal or forge a line), at most 80 characters.
 */
export function quoted(text: string): string {
  const cut = [...text].length > 80 ? `${[...text].slice(0, 80).join('')}…` : text;
  return `"${cut.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

const requireFromHere = createRequire(import.meta.url);
const parsed = new Map<string, ParsedFont>();

/** A fallback font file, read from its npm package (never from the system's fonts). */
function loadFallback(f: FallbackFont, bold: boolean): ParsedFont {
  const file = bold ? f.bold : f.regular;
  let font = parsed.get(file);
  if (!font) {
    // The packages export only their index; the fonts sit in fonts/ beside dist/.
    const dir = path.join(path.dirname(requireFromHere.resolve(f.pkg)), '..', 'fonts');
    font = fontkit.create(readFileSync(path.join(dir, file))) as ParsedFont;
    parsed.set(file, font);
  }
  return font;
}

/** Fallback order for one string: Korean text wants the Korean font, kana the Japanese one. */
function fallbackOrder(text: string): readonly FallbackFont[] {
  const first = HANGUL.test(text) ? 'kr' : KANA.test(text) ? 'jp' : undefined;
  return first ? [...FALLBACKS.filter((f) => f.key === first), ...FALLBACKS.filter((f) => f.key !== first)] : FALLBACKS;
}

interface Run {
  /** Registered font name to draw the run in. */
  font: string;
  text: string;
}

type TextFn = (text: unknown, x?: unknown, y?: unknown, options?: unknown) => PDFKit.PDFDocument;
type MeasureFn = (text: string, options?: unknown) => number;

interface DocInternals {
  _font: { font?: ParsedFont };
  _registeredFonts: Record<string, unknown>;
}

/**
 * Teaches one document to draw any string in the fonts that have its characters: `text`,
 * `widthOfString` and `heightOfString` split the string into runs when the current font lacks
 * some of its characters. Strings the current font covers (nearly all) take the plain path.
 * `warn` receives each problem once (right-to-left text, characters no font has).
 * `houseFallback`: with a firm's fonts in the roles, the registered name of the house font of a
 * role, tried first for characters the firm's font lacks (so even Latin text is checked).
 */
export function enableFontFallback(doc: PDFKit.PDFDocument, warn: (message: string) => void, houseFallback?: (role: string) => string): void {
  const internals = doc as unknown as DocInternals;
  const setFont = doc.font.bind(doc) as (name: string) => PDFKit.PDFDocument;
  const text = doc.text.bind(doc) as TextFn;
  const widthOf = doc.widthOfString.bind(doc) as MeasureFn;
  const heightOf = doc.heightOfString.bind(doc) as MeasureFn;
  let role = '';
  const covered = new Map<ParsedFont, Map<number, boolean>>();
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string) => {
    if (!warned.has(key)) {
      warned.add(key);
      warn(message);
    }
  };

  const has = (font: ParsedFont, cp: number): boolean => {
    let cache = covered.get(font);
    if (!cache) covered.set(font, (cache = new Map()));
    let yes = cache.get(cp);
    if (yes === undefined) {
      yes = font.hasGlyphForCodePoint(cp);
      cache.set(cp, yes);
    }
    return yes;
  };

  /**
   * Whether a firm's font has every character of a SIMPLE string (all below U+2600): one byte
   * per code point and font, filled as characters are first met, so the check per string is a
   * loop over its char codes (most report text), not a search of the font's cmap.
   */
  const simpleCoverage = new Map<ParsedFont, Uint8Array>();
  const coversSimple = (font: ParsedFont, text: string): boolean => {
    let known = simpleCoverage.get(font);
    if (!known) simpleCoverage.set(font, (known = new Uint8Array(0x2600)));
    for (let i = 0; i < text.length; i++) {
      const cp = text.charCodeAt(i);
      let k = known[cp]!;
      if (k === 0) known[cp] = k = cp <= 0x20 || font.hasGlyphForCodePoint(cp) ? 1 : 2;
      if (k === 2) return false;
    }
    return true;
  };

  /** The runs of `s`, or undefined when the current font has every character. */
  const runsOf = (s: string): Run[] | undefined => {
    const current = internals._font?.font;
    if (!current) return undefined;
    if (SIMPLE.test(s) && (!houseFallback || coversSimple(current, s))) return undefined;
    if (RTL.test(s)) {
      warnOnce(`rtl:${s}`, `The PDF cannot lay out right-to-left text: ${quoted(s)} is printed in stored order (its letters read reversed). The XLSX, CSV and JSON hold it correctly.`);
    }
    const cps = [...s];
    if (cps.every((c) => /\s/.test(c) || has(current, c.codePointAt(0)!))) return undefined;
    const bold = /bold$/i.test(role);
    const chain: { name: string; font: ParsedFont | (() => ParsedFont) }[] = [
      { name: role, font: current },
      ...(houseFallback && houseFallback(role) in internals._registeredFonts ? [{ name: houseFallback(role), font: (internals._registeredFonts[houseFallback(role)] as { src: ParsedFont }).src }] : []),
      ...fallbackOrder(s).map((f) => ({ name: fallbackName(f, bold), font: () => loadFallback(f, bold) })),
    ];
    const fontOf = (i: number): ParsedFont => {
      const entry = chain[i]!;
      if (typeof entry.font === 'function') entry.font = entry.font();
      return entry.font;
    };
    const runs: Run[] = [];
    let at = 0;
    for (const c of cps) {
      const cp = c.codePointAt(0)!;
      // Stay in the run's font while it has the character (spaces and digits join the run).
      if (!(/\s/.test(c) || has(fontOf(at), cp))) {
        const found = chain.findIndex((_, i) => has(fontOf(i), cp));
        if (found >= 0) at = found;
        else warnOnce(`cp:${cp}`, `No report font has the character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (${quoted(c)}); it prints as an empty box.`);
      }
      const name = chain[at]!.name;
      const last = runs[runs.length - 1];
      if (last && last.font === name) last.text += c;
      else runs.push({ font: name, text: c });
    }
    for (const r of runs) if (!(r.font in internals._registeredFonts)) doc.registerFont(r.font, fontOf(chain.findIndex((e) => e.name === r.font)) as unknown as Buffer);
    return runs;
  };

  /** Runs `measure` in the font of each run, back in the caller's font after. */
  const inFont = <T>(font: string, f: () => T): T => {
    const saved = role;
    setFont(font);
    role = font;
    try {
      return f();
    } finally {
      if (saved) setFont(saved);
      role = saved;
    }
  };

  Object.assign(doc, {
    font(this: PDFKit.PDFDocument, src: unknown, ...rest: unknown[]) {
      if (typeof src === 'string') role = src;
      return (setFont as (...a: unknown[]) => PDFKit.PDFDocument)(src, ...rest);
    },
    text(this: PDFKit.PDFDocument, value: unknown, x?: unknown, y?: unknown, options?: unknown) {
      const runs = typeof value === 'string' ? runsOf(value) : undefined;
      if (!runs) return text(value, x, y, options);
      const opts = (typeof x === 'object' && x !== null ? x : options) ?? {};
      const start: [unknown, unknown] = typeof x === 'number' ? [x, y] : [undefined, undefined];
      runs.forEach((r, i) => {
        const last = i === runs.length - 1;
        const runOptions = { ...(opts as object), continued: last ? (opts as { continued?: boolean }).continued ?? false : true };
        inFont(r.font, () => (i === 0 ? text(r.text, start[0], start[1], runOptions) : text(r.text, runOptions)));
      });
      return doc;
    },
    widthOfString(this: PDFKit.PDFDocument, s: string, options?: unknown) {
      const runs = runsOf(s);
      if (!runs) return widthOf(s, options);
      return runs.reduce((w, r) => w + inFont(r.font, () => widthOf(r.text, options)), 0);
    },
    heightOfString(this: PDFKit.PDFDocument, s: string, options?: unknown) {
      const runs = typeof s === 'string' ? runsOf(s) : undefined;
      if (!runs) return heightOf(s, options);
      // The whole string measured in each of its fonts, the tallest kept: never less room than drawn.
      return Math.max(...[...new Set(runs.map((r) => r.font))].map((font) => inFont(font, () => heightOf(s, options))));
    },
  });
}

const fallbackName = (f: FallbackFont, bold: boolean) => `noto-${f.key}${bold ? '-bold' : ''}`;
