/**
 * The pseudo-locale proves nothing overflows (issue 36): a client report of every section in
 * en-XA (every string accented and 40 % longer), and in German (long compound words), written
 * with the layout trace on and read back with pdftotext -bbox-layout. Every piece of text drawn
 * — table cells and headers, card labels, figures and notes, paragraphs, ticks, furniture — lies
 * inside the box its writer gave it (reports/writers/pdf-layout-trace.ts), a wrapped text in a box
 * of fixed height (the cover's boxes, a card's note, a cell in its row) above the box's bottom,
 * and no word is drawn outside the page's margins.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { writePdf } from '../../reports/writers/pdf';
import { writeDashboardPdf } from '../../reports/writers/dashboard-pdf';
import { MARGIN } from '../../reports/writers/pdf-layout';
import { overflowing, type TracedText } from '../../reports/writers/pdf-layout-trace';
import { makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

const run = promisify(execFile);

interface PageWords {
  width: number;
  height: number;
  words: { text: string; xMin: number; yMin: number; xMax: number; yMax: number }[];
}

async function pagesOf(file: string): Promise<PageWords[]> {
  const { stdout } = await run('pdftotext', ['-bbox-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('<page ').slice(1).map((page) => ({
    width: Number(/width="([\d.]+)"/.exec(page)![1]),
    height: Number(/height="([\d.]+)"/.exec(page)![1]),
    words: [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      xMin: Number(m[1]),
      yMin: Number(m[2]),
      xMax: Number(m[3]),
      yMax: Number(m[4]),
      text: m[5]!,
    })),
  }));
}

describe.each(['en-XA', 'de'] as const)('a client report in %s: no text drawn outside its box, column or page', (language) => {
  const trace: TracedText[] = [];
  let pages: PageWords[];
  let data: ReturnType<typeof makeReportData>;

  beforeAll(async () => {
    data = { ...makeReportData({ holdings: 12, errors: 2, previous: true, history: true, currency: 'USD' }), language };
    const file = path.join(tempDir(`pdf-${language}-overflow`), `report-${language}.pdf`);
    await writePdf(data, file, { trace });
    pages = await pagesOf(file);
  }, 180_000);

  it('draws every piece of text inside its box: table cells, card labels, figures, notes, ticks, furniture', () => {
    // The trace saw the tables' cells (a holding's description), the cards' labels (their own box, a third of the page) and every page's furniture.
    const description = [...data.holdings][0]!.description;
    expect(trace.some((t) => description.startsWith(t.text) && t.box.width < 200)).toBe(true);
    if (language === 'en-XA') expect(trace.some((t) => /ÇÛŔŔÉÑŢ/.test(t.text) && t.box.width < 170)).toBe(true);
    expect(new Set(trace.map((t) => t.page)).size).toBe(pages.length);
    expect(overflowing(trace)).toEqual([]);
  });

  it("keeps every wrapped text in a box of fixed height above the box's bottom: the cover's boxes, the cards' notes, table cells in their rows", () => {
    const bounded = trace.filter((t) => t.box.bottom !== undefined);
    /** The boxes of fixed height on `page` whose text took two lines or more. */
    const wrapped = (page: number) => [...new Set(bounded.filter((t) => t.page === page).map((t) => t.box))].filter((box) => new Set(bounded.filter((t) => t.box === box && t.drawn > 0).map((t) => t.y)).size > 1);
    // The cover's sandbox warning takes two lines in both languages (it ran onto its box's border); a summary card's note wraps in en-XA.
    expect(wrapped(0).length).toBeGreaterThan(0);
    if (language === 'en-XA') expect(wrapped(1).length).toBeGreaterThan(0);
    const description = [...data.holdings][0]!.description;
    expect(bounded.some((t) => t.drawn > 0 && description.startsWith(t.text))).toBe(true);
    expect(overflowing(bounded)).toEqual([]);
  });

  it("draws every word within the page's side margins and inside the page", () => {
    expect(pages.length).toBeGreaterThan(4);
    const outside = pages.flatMap((p, i) =>
      p.words
        .filter((w) => w.xMin < MARGIN.side - 0.5 || w.xMax > p.width - MARGIN.side + 0.5 || w.yMin < 0 || w.yMax > p.height)
        .map((w) => `page ${i + 1}: ${w.text} at ${w.xMin.toFixed(1)}–${w.xMax.toFixed(1)}`),
    );
    expect(outside).toEqual([]);
  });
});

describe('the market dashboard in en-XA: no text drawn outside its box', () => {
  it('draws every piece of text inside its box: tables, bar chart labels, furniture', async () => {
    const trace: TracedText[] = [];
    await writeDashboardPdf({ ...makeDashboardData(), language: 'en-XA' }, path.join(tempDir('pdf-xa-dashboard'), 'dashboard-en-XA.pdf'), undefined, trace);
    // The furniture is the language's too (it was English): its sandbox mark accented.
    expect(trace.some((t) => t.text.includes('ŠÀÑĐƁÖẊ'))).toBe(true);
    expect(trace.length).toBeGreaterThan(100);
    expect(overflowing(trace)).toEqual([]);
  });
});
