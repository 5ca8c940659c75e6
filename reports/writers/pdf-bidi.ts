/**
 * Right-to-left text for the PDF: the Unicode bidirectional algorithm (UAX #9) by bidi-js, a
 * complete, tested implementation (explicit embeddings, isolates, weak and neutral types,
 * mirroring): hand-written rules would get numbers and brackets inside Arabic wrong. Levels are
 * resolved once per paragraph, lines are broken in logical order (pdf-line-breaks.ts), and each line is reordered
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
  // bidi-js returns the whole string's indices with the line's segments reversed: the line's own are [start, end).
  const order = bidi.getReorderedIndices(p.text, p.levels, start, end - 1).slice(start, end);
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
