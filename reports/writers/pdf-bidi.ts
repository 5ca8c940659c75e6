/**
 * Right-to-left text for the PDF: the Unicode bidirectional algorithm (UAX #9) by bidi-js, a
 * complete, tested implementation (explicit embeddings, isolates, weak and neutral types,
 * mirroring): hand-written rules would get numbers and brackets inside Arabic wrong. Levels are
 * resolved once per paragraph, lines are broken in logical order, and each line is reordered
 * on its own (rule L2), as the algorithm requires.
 */
import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

/** Hebrew, Arabic, Syriac, Thaana, NKo and their presentation forms. */
export const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

export interface BidiParagraph {
  text: string;
  levels: ReturnType<typeof bidi.getEmbeddingLevels>;
  rtl: boolean;
}

/** A piece of a line in one direction, `text` in logical order (mirrored brackets swapped when `rtl`). */
export interface VisualPiece {
  text: string;
  rtl: boolean;
}

/** `base`: the document's direction, or 'auto' (the first strong character decides, rule P2). */
export function bidiParagraph(text: string, base: 'ltr' | 'rtl' | 'auto'): BidiParagraph {
  const levels = bidi.getEmbeddingLevels(text, base === 'auto' ? undefined : base);
  const rtl = (levels.paragraphs[0]?.level ?? 0) % 2 === 1;
  return { text, levels, rtl };
}

/**
 * The pieces of line [start, end) from left to right: runs of visually consecutive characters
 * at one level. A right-to-left piece keeps logical order for the shaper (Arabic letters join by
 * their logical neighbours), which lays it out right to left.
 */
export function visualPieces(p: BidiParagraph, start: number, end: number): VisualPiece[] {
  const order = bidi.getReorderedIndices(p.text, p.levels, start, end - 1);
  const mirrored = bidi.getMirroredCharactersMap(p.text, p.levels.levels, start, end - 1);
  const pieces: VisualPiece[] = [];
  let i = 0;
  while (i < order.length) {
    const first = order[i]!;
    const rtl = p.levels.levels[first]! % 2 === 1;
    const step = rtl ? -1 : 1;
    let j = i + 1;
    while (j < order.length && order[j] === order[j - 1]! + step && p.levels.levels[order[j]!] === p.levels.levels[first]) j++;
    const from = rtl ? order[j - 1]! : first;
    const to = rtl ? first : order[j - 1]!;
    let text = '';
    for (let k = from; k <= to; k++) text += mirrored.get(k) ?? p.text[k];
    pieces.push({ text, rtl });
    i = j;
  }
  return pieces;
}

const words = new Map<string, Intl.Segmenter>();

/**
 * Lines of at most `width` (as `measure` of a logical range says), broken after spaces by the
 * locale's word boundaries (Intl.Segmenter), a word longer than a line between graphemes.
 * Returns [start, end) ranges without the spaces a line ends in.
 */
export function breakLines(p: BidiParagraph, width: number, measure: (start: number, end: number) => number, lang: string): [number, number][] {
  let segmenter = words.get(lang);
  if (!segmenter) words.set(lang, (segmenter = new Intl.Segmenter(lang, { granularity: 'word' })));
  const lines: [number, number][] = [];
  for (const paragraph of p.text.split('\n').reduce<[number, number][]>((acc, s) => {
    const at = acc.length === 0 ? 0 : acc[acc.length - 1]![1] + 1;
    acc.push([at, at + s.length]);
    return acc;
  }, [])) {
    const [pStart, pEnd] = paragraph;
    // Break opportunities: before each segment that follows a space.
    const stops: number[] = [];
    for (const s of segmenter.segment(p.text.slice(pStart, pEnd))) {
      const at = pStart + s.index;
      if (at > pStart && /\s/.test(p.text[at - 1]!) && !/\s/.test(p.text[at]!)) stops.push(at);
    }
    stops.push(pEnd);
    let lineStart = pStart;
    let lastFit = -1;
    for (const stop of stops) {
      if (measure(lineStart, trimEnd(p.text, lineStart, stop)) <= width) {
        lastFit = stop;
        continue;
      }
      if (lastFit > lineStart) {
        lines.push([lineStart, trimEnd(p.text, lineStart, lastFit)]);
        lineStart = lastFit;
      }
      // One word wider than the line: cut it between graphemes.
      if (measure(lineStart, trimEnd(p.text, lineStart, stop)) > width) lineStart = cutLong(p, lineStart, stop, width, measure, lines);
      lastFit = stop;
    }
    lines.push([lineStart, trimEnd(p.text, lineStart, pEnd)]);
  }
  return lines;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Pushes whole lines of graphemes of [start, stop) that fit; returns where the rest starts. */
function cutLong(p: BidiParagraph, start: number, stop: number, width: number, measure: (s: number, e: number) => number, lines: [number, number][]): number {
  let lineStart = start;
  let last = start;
  for (const g of graphemes.segment(p.text.slice(start, stop))) {
    const end = start + g.index + g.segment.length;
    if (measure(lineStart, end) > width && last > lineStart) {
      lines.push([lineStart, last]);
      lineStart = last;
    }
    last = end;
  }
  return lineStart;
}
