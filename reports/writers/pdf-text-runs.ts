/**
 * Text in any of Latin, Greek, Cyrillic, Chinese, Japanese and Korean with real glyphs: each
 * string is split into runs by which font has its characters, DejaVu first (the house look),
 * then Noto Sans CJK (JP, TC, SC, KR) from the @embedpdf/fonts-* npm packages (SIL OFL 1.1,
 * which allows embedding), and each run is drawn in its own font. pdfkit embeds only the glyphs
 * used, and only fonts a report needs are parsed (a Latin-only report never opens them).
 *
 * Arabic comes from Noto Naskh Arabic, Hebrew from Noto Sans Hebrew (@embedpdf/fonts-arabic,
 * -hebrew, SIL OFL 1.1) where the current font lacks them (DejaVu Serif). A string with right-to-left characters is laid out by the Unicode
 * bidirectional algorithm (pdf-bidi.ts): broken into lines in logical order, each line's pieces
 * drawn left to right in visual order, right-to-left pieces shaped (joining forms, lam-alef) by
 * fontkit; readers (pdftotext, pdf.js, Acrobat) reorder the glyphs back to logical order by the
 * same algorithm, as for any visually ordered PDF. Chinese and Japanese take the same layout
 * (one left-to-right piece a line) for their line breaking: by words and kinsoku (pdf-line-breaks.ts). A string in a
 * script other than the document's language (a Japanese name in a German report) is a Span with
 * its own /Lang. Characters no font has are warned about.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { SHAPED_RTL, withShapingMarkers } from './pdf-fonts';
import { bidiParagraph, RTL_SCRIPT, visualPieces, type BidiParagraph } from './pdf-bidi';
import { breakLines, CJK } from './pdf-line-breaks';

/** A single font (never a collection: every file here is one font). */
type ParsedFont = fontkit.Font;

export interface FallbackFont {
  key: string;
  pkg: string;
  regular: string;
  bold: string;
}

/** The CJK fallbacks; all four also carry Latin, Greek and Cyrillic glyphs. */
export const FALLBACKS: readonly FallbackFont[] = [
  { key: 'jp', pkg: '@embedpdf/fonts-jp', regular: 'NotoSansJP-Regular.otf', bold: 'NotoSansJP-Bold.otf' },
  { key: 'tc', pkg: '@embedpdf/fonts-tc', regular: 'NotoSansHant-Regular.otf', bold: 'NotoSansHant-Bold.otf' },
  { key: 'sc', pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  { key: 'kr', pkg: '@embedpdf/fonts-kr', regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' },
  { key: 'ar', pkg: '@embedpdf/fonts-arabic', regular: 'NotoNaskhArabic-Regular.ttf', bold: 'NotoNaskhArabic-Bold.ttf' },
  { key: 'he', pkg: '@embedpdf/fonts-hebrew', regular: 'NotoSansHebrew-Regular.ttf', bold: 'NotoSansHebrew-Bold.ttf' },
];

const KANA = /[\u3040-\u30ff\u31f0-\u31ff]/;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;
const HEBREW = /[\u0590-\u05ff\ufb1d-\ufb4f]/;
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/u;
export const RTL = RTL_SCRIPT;
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

/** A fallback font's file in its npm package (never the system's fonts); the web page subsets it too. */
export function fallbackFontPath(f: FallbackFont, bold: boolean): string {
  // The packages export only their index; the fonts sit in fonts/ beside dist/.
  return path.join(path.dirname(requireFromHere.resolve(f.pkg)), '..', 'fonts', bold ? f.bold : f.regular);
}

/** A fallback font, parsed once per process. */
function loadFallback(f: FallbackFont, bold: boolean): ParsedFont {
  const file = bold ? f.bold : f.regular;
  let font = parsed.get(file);
  if (!font) {
    // Right-to-left runs ask for their direction (SHAPED_RTL), as in the house fonts.
    font = withShapingMarkers(fontkit.create(readFileSync(fallbackFontPath(f, bold))) as ParsedFont);
    parsed.set(file, font);
  }
  return font;
}

/** Fallback order for one string: Korean text wants the Korean font, kana the Japanese one. */
function fallbackOrder(text: string): readonly FallbackFont[] {
  const first = HEBREW.test(text) ? 'he' : RTL.test(text) ? 'ar' : HANGUL.test(text) ? 'kr' : KANA.test(text) ? 'jp' : undefined;
  return first ? [...FALLBACKS.filter((f) => f.key === first), ...FALLBACKS.filter((f) => f.key !== first)] : FALLBACKS;
}

interface Run {
  /** Registered font name to draw the run in. */
  font: string;
  text: string;
}

/** The document's language and direction. */
export interface ScriptContext {
  lang: string;
  dir: 'ltr' | 'rtl';
}

/** The pdfkit text options the bidirectional layout reads. */
interface TextOptions {
  width?: number;
  height?: number;
  align?: 'left' | 'right' | 'center' | 'justify';
  lineBreak?: boolean;
  lineGap?: number;
  ellipsis?: boolean | string;
  continued?: boolean;
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
 * `script`: the document's language and direction (an `ar` report's paragraphs are right to left).
 */
export function enableFontFallback(
  doc: PDFKit.PDFDocument,
  warn: (message: string) => void,
  houseFallback?: (role: string) => string,
  script: ScriptContext = { lang: 'en', dir: 'ltr' },
): void {
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

  /** A string's own language when its script is not the document language's (its Span's /Lang). */
  const base = script.lang.split('-')[0]!.toLowerCase();
  const spanLang = (s: string): string | undefined => {
    const own = HEBREW.test(s) ? 'he' : RTL.test(s) ? 'ar' : KANA.test(s) ? 'ja' : HANGUL.test(s) ? 'ko' : HAN.test(s) ? (base === 'ja' ? 'ja' : 'zh') : undefined;
    return own && own !== base ? own : undefined;
  };

  /** `f` in `font` (the current one needs no switch). */
  const runIn = <T>(font: string, f: () => T): T => (font === role ? f() : inFont(font, f));

  /** Arabic is never letter-spaced (a label's tracking would pull its joined letters apart): spacing off for right-to-left pieces. */
  const rtlSpacing = (rtl: boolean) => (rtl ? { characterSpacing: 0 } : {});

  /** The runs of line [start, end) of `p` from left to right, each in its font, with its width. */
  const drawnPieces = (p: BidiParagraph, start: number, end: number, options: object) => {
    const out: { font: string; text: string; rtl: boolean; width: number }[] = [];
    for (const piece of visualPieces(p, start, end)) {
      const runs = runsOf(piece.text) ?? [{ font: role, text: piece.text }];
      if (piece.rtl) runs.reverse();
      const features = piece.rtl ? SHAPED_RTL : undefined;
      for (const r of runs) out.push({ ...r, rtl: piece.rtl, width: runIn(r.font, () => widthOf(r.text, { ...options, ...rtlSpacing(piece.rtl), features })) });
    }
    return out;
  };
  const lineWidth = (p: BidiParagraph, start: number, end: number, options: object) => drawnPieces(p, start, end, options).reduce((w, r) => w + r.width, 0);

  const bidiLines = (p: BidiParagraph, o: TextOptions, width: number): [number, number][] =>
    o.lineBreak === false ? [[0, p.text.length]] : breakLines(p.text, width, (s, e) => lineWidth(p, s, e, o), script.lang);

  const defaultWidth = (x: number) => doc.page.width - doc.page.margins.right - x;
  const lineGapOf = (o: TextOptions) => o.lineGap ?? (doc as unknown as { _lineGap?: number })._lineGap ?? 0;

  /**
   * A string with right-to-left characters, or Chinese or Japanese: lines broken in logical order
   * by the locale's words and kinsoku (pdf-line-breaks.ts), each drawn piece by piece in visual
   * order (aligned to the paragraph's start unless `align` says otherwise).
   * No /ActualText: pdftotext reorders right-to-left text itself and would reverse a logical
   * ActualText; glyphs in visual order with their letters as ToUnicode extract logically.
   */
  const drawBidi = (value: string, x: unknown, y: unknown, o: TextOptions): PDFKit.PDFDocument => {
    const startX = typeof x === 'number' ? x : doc.x;
    let at = typeof y === 'number' ? y : doc.y;
    const width = o.width ?? defaultWidth(startX);
    let p = bidiParagraph(value, script.dir === 'rtl' ? 'rtl' : 'auto');
    if (o.lineBreak === false && o.ellipsis && lineWidth(p, 0, value.length, o) > width) {
      let end = value.length;
      while (end > 0 && lineWidth(bidiParagraph(`${value.slice(0, end).trimEnd()}…`, p.rtl ? 'rtl' : 'ltr'), 0, value.slice(0, end).trimEnd().length + 1, o) > width) end--;
      p = bidiParagraph(`${value.slice(0, end).trimEnd()}…`, p.rtl ? 'rtl' : 'ltr');
    }
    const { width: _w, align, continued: _c, ellipsis: _e, lineBreak: _l, height: _h, ...rest } = o;
    const lh = doc.currentLineHeight(true) + lineGapOf(o);
    const lang = spanLang(value);
    for (const [s, e] of bidiLines(p, o, width)) {
      const pieces = drawnPieces(p, s, e, rest);
      const w = pieces.reduce((sum, r) => sum + r.width, 0);
      const side = align ?? (p.rtl ? 'right' : 'left');
      let cx = side === 'right' ? startX + width - w : side === 'center' ? startX + (width - w) / 2 : startX;
      if (lang) doc.markContent('Span', { lang });
      for (const r of pieces) {
        runIn(r.font, () => text(r.text, cx, at, { ...rest, ...rtlSpacing(r.rtl), lineBreak: false, features: r.rtl ? SHAPED_RTL : undefined }));
        cx += r.width;
      }
      if (lang) doc.endMarkedContent();
      at += lh;
    }
    doc.x = startX;
    doc.y = at;
    return doc;
  };

  const isBidi = (s: unknown): s is string => typeof s === 'string' && !SIMPLE.test(s) && RTL.test(s);
  /** Chinese or Japanese: broken into lines by the locale's words and kinsoku (pdf-line-breaks.ts), not pdfkit's UAX #14 alone. */
  const isCjk = (s: unknown): s is string => typeof s === 'string' && !SIMPLE.test(s) && CJK.test(s);

  Object.assign(doc, {
    font(this: PDFKit.PDFDocument, src: unknown, ...rest: unknown[]) {
      if (typeof src === 'string') role = src;
      return (setFont as (...a: unknown[]) => PDFKit.PDFDocument)(src, ...rest);
    },
    text(this: PDFKit.PDFDocument, value: unknown, x?: unknown, y?: unknown, options?: unknown) {
      const opts = ((typeof x === 'object' && x !== null ? x : options) ?? {}) as TextOptions;
      if (isBidi(value) || (isCjk(value) && !opts.continued)) return drawBidi(value, x, y, opts);
      const lang = typeof value === 'string' && !SIMPLE.test(value) && !opts.continued ? spanLang(value) : undefined;
      if (!lang) return drawRuns(value, x, y, options);
      doc.markContent('Span', { lang });
      try {
        return drawRuns(value, x, y, options);
      } finally {
        doc.endMarkedContent();
      }
    },
    widthOfString(this: PDFKit.PDFDocument, s: string, options?: unknown) {
      if (isBidi(s)) return lineWidth(bidiParagraph(s, script.dir === 'rtl' ? 'rtl' : 'auto'), 0, s.length, (options ?? {}) as object);
      const runs = runsOf(s);
      if (!runs) return widthOf(s, options);
      return runs.reduce((w, r) => w + inFont(r.font, () => widthOf(r.text, options)), 0);
    },
    heightOfString(this: PDFKit.PDFDocument, s: string, options?: unknown) {
      if (isBidi(s) || isCjk(s)) {
        const o = (options ?? {}) as TextOptions;
        const lines = bidiLines(bidiParagraph(s, script.dir === 'rtl' ? 'rtl' : 'auto'), o, o.width ?? defaultWidth(doc.x));
        return lines.length * (doc.currentLineHeight(true) + lineGapOf(o));
      }
      const runs = typeof s === 'string' ? runsOf(s) : undefined;
      if (!runs) return heightOf(s, options);
      // The whole string measured in each of its fonts, the tallest kept: never less room than drawn.
      return Math.max(...[...new Set(runs.map((r) => r.font))].map((font) => inFont(font, () => heightOf(s, options))));
    },
  });

  /** Text the current font may lack characters of: drawn run by run in the fonts that have them. */
  function drawRuns(value: unknown, x?: unknown, y?: unknown, options?: unknown): PDFKit.PDFDocument {
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
  }
}

const fallbackName = (f: FallbackFont, bold: boolean) => `noto-${f.key}${bold ? '-bold' : ''}`;
