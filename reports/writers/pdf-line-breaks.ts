/**
 * Where the PDF's own text layout (pdf-text-runs.ts: right-to-left text, Chinese and Japanese)
 * breaks lines. Words are the locale's (Intl.Segmenter, ICU's dictionary for Chinese and Japanese,
 * which have no spaces): a line breaks after spaces, and between words where either side is CJK,
 * never inside a word ("ポートフォリオ" stays whole). Kinsoku shori (JIS X 4051, GB/T 15834): no
 * line starts with closing punctuation, a small kana or the prolonged sound mark (。、」）ー っ),
 * none ends with an opening bracket (「（). A word longer than a line is cut between graphemes.
 */

/** Han, kana, CJK punctuation and the fullwidth forms: the text that breaks between words without spaces. */
export const CJK = /[\u2e80-\u2fdf\u3000-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;

/** Characters no line may start with: closing brackets and punctuation, small kana, iteration and prolonged sound marks. */
export const NO_LINE_START = new Set([
  ...'、。，．・：；？！゛゜ヽヾゝゞ々〻ー’”）〕］｝〉》」』】〙〗〟｠»‐゠–〜～',
  ...'ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ',
  ...')]},.:;?!%',
]);

/** Characters no line may end with: opening brackets and quotation marks. */
export const NO_LINE_END = new Set([...'（〔［｛〈《「『【〘〖〝｟«‘“', ...'([{']);

const segmenters = new Map<string, Intl.Segmenter>();
function wordsOf(lang: string): Intl.Segmenter {
  let s = segmenters.get(lang);
  if (!s) segmenters.set(lang, (s = new Intl.Segmenter(lang, { granularity: 'word' })));
  return s;
}

const space = (c: string | undefined) => c !== undefined && /\s/.test(c);

/**
 * The positions in [start, end) of `text` a line may start at: after a space (before the next
 * word), or at a word boundary with CJK on either side that kinsoku allows.
 */
export function breakOpportunities(text: string, start: number, end: number, lang: string): number[] {
  const stops: number[] = [];
  for (const s of wordsOf(lang).segment(text.slice(start, end))) {
    const at = start + s.index;
    if (at === start) continue;
    const before = text[at - 1]!;
    const after = text[at]!;
    if (space(after)) continue;
    if (space(before)) stops.push(at);
    else if ((CJK.test(before) || CJK.test(after)) && !NO_LINE_START.has(after) && !NO_LINE_END.has(before)) stops.push(at);
  }
  return stops;
}

/**
 * Lines of at most `width` (as `measure` of a range says), each [start, end) without the spaces it
 * ends in; paragraphs split at "\n".
 */
export function breakLines(text: string, width: number, measure: (start: number, end: number) => number, lang: string): [number, number][] {
  const lines: [number, number][] = [];
  let pStart = 0;
  for (const paragraph of text.split('\n')) {
    const pEnd = pStart + paragraph.length;
    const stops = [...breakOpportunities(text, pStart, pEnd, lang), pEnd];
    let lineStart = pStart;
    let lastFit = -1;
    for (const stop of stops) {
      if (measure(lineStart, trimEnd(text, lineStart, stop)) <= width) {
        lastFit = stop;
        continue;
      }
      if (lastFit > lineStart) {
        lines.push([lineStart, trimEnd(text, lineStart, lastFit)]);
        lineStart = lastFit;
      }
      // One word wider than the line: cut it between graphemes.
      if (measure(lineStart, trimEnd(text, lineStart, stop)) > width) lineStart = cutLong(text, lineStart, stop, width, measure, lines);
      lastFit = stop;
    }
    lines.push([lineStart, trimEnd(text, lineStart, pEnd)]);
    pStart = pEnd + 1;
  }
  return lines;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && space(text[end - 1])) end--;
  return end;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Pushes whole lines of graphemes of [start, stop) that fit; returns where the rest starts. */
function cutLong(text: string, start: number, stop: number, width: number, measure: (s: number, e: number) => number, lines: [number, number][]): number {
  let lineStart = start;
  let last = start;
  for (const g of graphemes.segment(text.slice(start, stop))) {
    const end = start + g.index + g.segment.length;
    if (measure(lineStart, end) > width && last > lineStart) {
      lines.push([lineStart, last]);
      lineStart = last;
    }
    last = end;
  }
  return lineStart;
}
