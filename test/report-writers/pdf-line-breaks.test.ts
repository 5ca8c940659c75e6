/**
 * Chinese and Japanese broken into lines by the locale's rules (issue 36): between the words
 * Intl.Segmenter finds, never inside one, and by kinsoku — no line starts with closing
 * punctuation (。、」）), none ends with an opening bracket (「（). The breaker alone over every
 * width, then a PDF drawn narrow and read back with pdftotext.
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { breakLines, breakOpportunities, NO_LINE_END, NO_LINE_START } from '../../reports/writers/pdf-line-breaks';
import { PdfPages } from '../../reports/writers/pdf-layout';
import { pdfText, tempDir } from './tools';

const JAPANESE = '山田太郎様のポートフォリオは「時計」と（美術品）を含みます。評価額は、月末の市場価格に基づいています。';
const CHINESE = '王小明的收藏品估值报告，包括手表、艺术品和葡萄酒。估值基于月末的市场价格（参考）。';
/** An Arabic sentence broken the same way (each line reordered on its own): every line drawn once, not the whole paragraph on each. */
const ARABIC = 'هذه الأرقام تقديرية؛ يرجى الاطلاع على إخلاء المسؤولية في نهاية هذا التقرير.';
/** Words the breaker must keep whole: ICU's dictionary words of the two texts. */
const WHOLE = ['ポートフォリオ', '美術品', '市場', '价格', '葡萄酒'];

/** Every character one unit wide: a line of width n holds n characters. */
const lengthOf = (text: string) => (s: number, e: number) => text.slice(s, e).length;

function expectLocaleRules(lines: string[], text: string): void {
  expect(lines.join('')).toBe(text);
  for (const [i, line] of lines.entries()) {
    if (i > 0) expect(NO_LINE_START.has(line[0]!), `line ${i} starts with ${line[0]}: ${lines.join(' | ')}`).toBe(false);
    if (i < lines.length - 1) expect(NO_LINE_END.has(line[line.length - 1]!), `line ${i} ends with ${line.at(-1)}: ${lines.join(' | ')}`).toBe(false);
  }
  for (const word of WHOLE.filter((w) => text.includes(w))) {
    const at = text.indexOf(word);
    let offset = 0;
    for (const line of lines) {
      const end = offset + line.length;
      expect(offset > at && offset < at + word.length, `${word} cut: ${lines.join(' | ')}`).toBe(false);
      offset = end;
    }
  }
}

describe('the CJK line breaker', () => {
  it.each([
    ['ja', JAPANESE],
    ['zh-Hans', CHINESE],
  ])('%s: at every width from 8 characters, lines hold whole words and keep kinsoku', (lang, text) => {
    for (let width = 8; width <= text.length; width++) {
      const lines = breakLines(text, width, lengthOf(text), lang).map(([s, e]) => text.slice(s, e));
      expectLocaleRules(lines, text);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
    }
  });

  it('offers no break before closing punctuation or after an opening bracket, and none inside a word', () => {
    const stops = breakOpportunities(JAPANESE, 0, JAPANESE.length, 'ja');
    expect(stops.length).toBeGreaterThan(10);
    for (const at of stops) {
      expect(NO_LINE_START.has(JAPANESE[at]!)).toBe(false);
      expect(NO_LINE_END.has(JAPANESE[at - 1]!)).toBe(false);
    }
    const word = JAPANESE.indexOf('ポートフォリオ');
    expect(stops.filter((s) => s > word && s < word + 'ポートフォリオ'.length)).toEqual([]);
    // Where a break stands: before the word after the particle, and after the sentence's full stop.
    expect(stops).toContain(word);
    expect(stops).toContain(JAPANESE.indexOf('評価額'));
  });

  it('breaks Latin text at spaces only, as before', () => {
    const text = 'Valued as of 31 October 2026, in Swiss francs.';
    const lines = breakLines(text, 15, lengthOf(text), 'en').map(([s, e]) => text.slice(s, e));
    expect(lines).toEqual(['Valued as of 31', 'October 2026,', 'in Swiss', 'francs.']);
  });
});

describe('a Japanese and a Chinese paragraph drawn narrow in the PDF', () => {
  const file = path.join(tempDir('pdf-cjk-lines'), 'lines.pdf');
  let read: string[];
  let all: string;

  beforeAll(async () => {
    const p = new PdfPages({ title: 'CJK', subtitle: '', reference: 'ref', sandbox: false }, { Title: 'lines' }, { lang: 'ja', created: new Date('2026-10-31T00:00:00Z') });
    p.addPage();
    for (const text of [JAPANESE, CHINESE, ARABIC]) {
      p.tag('P', () => p.doc.font('sans').fontSize(10).text(text, p.left, p.doc.y, { width: 92 }));
      p.doc.moveDown();
    }
    await p.finish(createWriteStream(file));
    all = await pdfText(file);
    read = all.split('\n').map((l) => l.trim()).filter(Boolean);
  }, 60_000);

  it.each([
    ['ja', JAPANESE],
    ['zh', CHINESE],
  ])('%s: drawn on several lines, each by the locale\'s rules, reading back as the text', (_, text) => {
    const lines = read.filter((l) => text.includes(l) && l.length > 1);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expectLocaleRules(lines, text);
  });

  it('ar: a paragraph on several lines draws each word once', () => {
    for (const word of ['الأرقام', 'المسؤولية', 'التقرير']) expect(all.split(word).length - 1, word).toBe(1);
    expect(all.split('\n').filter((l) => /[\u0600-\u06ff]/.test(l)).length).toBeGreaterThanOrEqual(3);
  });
});
