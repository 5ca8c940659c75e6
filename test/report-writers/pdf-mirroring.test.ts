/**
 * Whole pages mirrored for a right-to-left report (issue 36): the cover, the figure cards and the
 * charts drawn on an `ar` page and on an `en` page, read back with pdftotext -bbox-layout. On the
 * `ar` page the first card, bar and date are at the right, the value axes right of their plots,
 * the cover's labels right of their values; on the `en` page the other way round. The charts'
 * labels are Latin on both pages (an English translator): what differs is the page's direction.
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { translator, type Language } from '../../src/i18n';
import { PdfPages } from '../../reports/writers/pdf-layout';
import { drawCover } from '../../reports/writers/pdf-cover';
import { drawFigures } from '../../reports/writers/pdf-figure-cards';
import { barChart, donutChart, lineChart } from '../../reports/writers/pdf-charts';
import { makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

const run = promisify(execFile);

interface Word {
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
}

/** Each page's words as drawn, by pdftotext -bbox-layout. */
async function pagesOf(file: string): Promise<Word[][]> {
  const { stdout } = await run('pdftotext', ['-bbox-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('<page ').slice(1).map((page) =>
    [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({ xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), text: m[4]! })),
  );
}

const find = (words: Word[], text: string): Word => {
  const w = words.find((x) => x.text === text);
  if (!w) throw new Error(`"${text}" not drawn; words: ${words.map((x) => x.text).join(' ')}`);
  return w;
};

const en = translator('en');
/** The line chart's legend in the page's language: an Arabic label is laid out right to left by itself. */
const LEGEND: Record<string, [string, string]> = { ar: ['القيمة', 'التدفقات'], en: ['Lineone', 'Linetwo'] };
/** pdftotext -bbox-layout gives an Arabic word's glyphs as drawn, left to right: reversed. */
const asDrawn = (s: string) => (/[\u0600-\u06ff]/.test(s) ? [...s].reverse().join('') : s);
const DATES = ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30'];

async function drawn(language: Language): Promise<Word[][]> {
  const file = path.join(tempDir(`mirror-${language}`), `${language}.pdf`);
  const data = { ...makeReportData({ holdings: 3, currency: 'EUR' }), language };
  const p = new PdfPages({ title: 'Mirror', subtitle: 'test', reference: 'ref', sandbox: false }, { Title: 'mirror' }, { lang: language, created: new Date('2026-10-31T00:00:00Z') });
  drawCover(p, data);
  p.addPage();
  const { doc } = p;
  drawFigures(p, [
    { label: 'Alpha', value: '111' },
    { label: 'Bravo', value: '222' },
    { label: 'Charlie', value: '333' },
  ]);
  const y = doc.y;
  donutChart(doc, p.left + 4, y, 130, [{ label: 'Watches', value: 60, colour: '336699' }, { label: 'Wine', value: 40, colour: '993366' }], { label: 'Centre', value: '100' }, 190, en, p);
  const bars = [1, 2, 3].map((v) => ({ label: `Q${v}`, value: v * 10, colour: '336699' }));
  barChart(doc, p.left + 40, y + 150, p.width - 60, 160, bars, en, p);
  const lines = [
    { label: LEGEND[language]![0], values: [1, 2, 3, 4, 5, 6].map((v) => v * 1000), colour: '336699' },
    { label: LEGEND[language]![1], values: [1, 1, 1, 1, 1, 1].map((v) => v * 500), colour: '993366', dashed: true },
  ];
  lineChart(doc, p.left, y + 330, p.width, 190, DATES, lines, (v) => `V${v}`, en, p);
  await p.finish(createWriteStream(file));
  return pagesOf(file);
}

describe('pages mirrored for an ar report, not for an en one: cover, figure cards, charts', () => {
  const pages = new Map<Language, Word[][]>();
  beforeAll(async () => {
    for (const language of ['ar', 'en'] as Language[]) pages.set(language, await drawn(language));
  }, 120_000);

  /** Whether the words are drawn from right to left (each one's centre left of the one before's): centred labels may overlap a neighbour's box. */
  const centre = (w: Word) => (w.xMin + w.xMax) / 2;
  const rightToLeft = (words: Word[]) => words.every((w, i) => i === 0 || centre(w) < centre(words[i - 1]!));
  const leftToRight = (words: Word[]) => words.every((w, i) => i === 0 || centre(w) > centre(words[i - 1]!));

  it.each([
    ['ar', rightToLeft],
    ['en', leftToRight],
  ] as const)('%s: the figure cards from the start side', (language, inOrder) => {
    const page = pages.get(language)![1]!;
    expect(inOrder(['ALPHA', 'BRAVO', 'CHARLIE'].map((t) => find(page, t)))).toBe(true);
    expect(inOrder(['111', '222', '333'].map((t) => find(page, t)))).toBe(true);
  });

  it.each([
    ['ar', rightToLeft],
    ['en', leftToRight],
  ] as const)('%s: bars from the start side, the value axis before the first bar', (language, inOrder) => {
    const page = pages.get(language)![1]!;
    const labels = ['Q1', 'Q2', 'Q3'].map((t) => find(page, t));
    expect(inOrder(labels)).toBe(true);
    // The axis' top label ("30 %"; the bar's own says "+30.0 %") stands before the first bar, at the start side.
    expect(inOrder([find(page, '30'), labels[0]!])).toBe(true);
  });

  it.each([
    ['ar', rightToLeft],
    ['en', leftToRight],
  ] as const)('%s: the line chart\'s time runs from the start side, its axis and legend there too', (language, inOrder) => {
    const page = pages.get(language)![1]!;
    const months = page.filter((w) => ['Jan', 'Mar', 'May', 'Jun'].includes(w.text)).sort((a, b) => DATES.findIndex((d) => en.date(d).includes(a.text)) - DATES.findIndex((d) => en.date(d).includes(b.text)));
    expect(months.map((m) => m.text)).toEqual(['Jan', 'Mar', 'May', 'Jun']);
    expect(inOrder(months)).toBe(true);
    expect(inOrder([find(page, 'V6000'), months[0]!])).toBe(true);
    const legend = LEGEND[language]!.map((l) => find(page, asDrawn(l)));
    expect(inOrder(legend)).toBe(true);
    // The legend starts above the plot's start: at the axis' side, not at the page's far margin.
    expect(inOrder([find(page, 'V6000'), legend[0]!, months.at(-1)!])).toBe(true);
  });

  it.each([
    ['ar', rightToLeft],
    ['en', leftToRight],
  ] as const)('%s: the donut at the start side, its legend after it', (language, inOrder) => {
    const page = pages.get(language)![1]!;
    expect(inOrder([find(page, 'Centre'), find(page, 'Watches')])).toBe(true);
    // A legend's share after its name.
    expect(inOrder([find(page, 'Watches'), page.find((w) => w.text === '60.0' && Math.abs(w.yMin - find(page, 'Watches').yMin) < 3)!])).toBe(true);
  });

  it.each([
    ['ar', rightToLeft],
    ['en', leftToRight],
  ] as const)('%s: the cover\'s labels before their values, its title at the start side', (language, inOrder) => {
    const cover = pages.get(language)![0]!;
    const value = find(cover, 'EUR');
    const label = cover.filter((w) => w !== value && Math.abs(w.yMin - value.yMin) < 5);
    expect(label.length).toBeGreaterThan(0);
    for (const w of label) expect(inOrder([w, value])).toBe(true);
    // The title ("Whitcombe Family Collection", Latin on both pages) aligned at the start side: the cover's text spans 60 to 535.
    const title = ['Whitcombe', 'Collection'].map((t) => find(cover, t));
    if (language === 'ar') expect(title[1]!.xMax).toBeGreaterThan(530);
    else expect(title[0]!.xMin).toBeLessThan(65);
  });
});
