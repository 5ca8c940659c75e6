/**
 * The pseudo-locale proves nothing overflows (issue 36): a client report of every section in
 * en-XA (every string accented and 40 % longer) written with the layout trace on, and read back
 * with pdftotext -bbox-layout. Every one-line text (labels, figures, axis ticks, furniture) fits
 * the room it was given, and no word is drawn outside the page's margins. Wrapped text wraps
 * within its width and ellipsised text is cut to it: neither can overflow, so the trace leaves
 * them out (reports/writers/pdf-layout-trace.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { writePdf } from '../../reports/writers/pdf';
import { MARGIN } from '../../reports/writers/pdf-layout';
import type { TracedText } from '../../reports/writers/pdf-layout-trace';
import { makeReportData } from '../../fixtures/report-data';
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

describe('an en-XA client report: no text drawn outside its box, column or page', () => {
  const trace: TracedText[] = [];
  let pages: PageWords[];

  beforeAll(async () => {
    const data = { ...makeReportData({ holdings: 12, errors: 2, previous: true, history: true, currency: 'USD' }), language: 'en-XA' as const };
    const file = path.join(tempDir('pdf-xa-overflow'), 'report-en-XA.pdf');
    await writePdf(data, file, { trace });
    pages = await pagesOf(file);
  }, 180_000);

  it('fits every one-line text in its room (card labels shrunk, then cut with an ellipsis)', () => {
    // The trace saw the report's labels: the cards', the charts' ticks, every page's furniture.
    expect(trace.length).toBeGreaterThan(40);
    expect(trace.some((t) => /ÇÛŔŔÉÑŢ/.test(t.text))).toBe(true);
    const over = trace.filter((t) => t.drawn > t.room + 0.01).map((t) => `page ${t.page + 1} at ${t.x.toFixed(0)},${t.y.toFixed(0)}: ${t.text} (${t.drawn.toFixed(1)} in ${t.room.toFixed(1)})`);
    expect(over).toEqual([]);
  });

  it('draws every word within the page\'s side margins and inside the page', () => {
    expect(pages.length).toBeGreaterThan(4);
    const outside = pages.flatMap((p, i) =>
      p.words
        .filter((w) => w.xMin < MARGIN.side - 0.5 || w.xMax > p.width - MARGIN.side + 0.5 || w.yMin < 0 || w.yMax > p.height)
        .map((w) => `page ${i + 1}: ${w.text} at ${w.xMin.toFixed(1)}–${w.xMax.toFixed(1)}`),
    );
    expect(outside).toEqual([]);
  });
});
