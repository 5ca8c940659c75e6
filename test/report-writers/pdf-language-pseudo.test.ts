/**
 * The client PDF in the pseudo-locale en-XA (issue 36), read back with pdftotext: every heading
 * and sentence the PDF writers own is accented, so nothing is hard-coded in English. Its own file
 * (its own process): the fonts are parsed once per process, and a document of accented letters
 * alone leaves their base glyphs cached without code points (see the report of issue 36's pdf part).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { translator, type MessageKey } from '../../src/i18n';
import { readable } from '../../reports/writers/labels';
import { dataText, englishLeft, spaced, writtenIn, type WrittenPdf } from './pdf-language-tools';

describe('client PDF in the pseudo-locale en-XA: nothing hard-coded', () => {
  let pdf: WrittenPdf;
  beforeAll(async () => {
    pdf = await writtenIn('en-XA', 'USD');
  }, 120_000);

  it('has every heading of ours accented, no message key and no English catalogue phrase', () => {
    const xa = translator('en-XA');
    for (const key of ['pdf.summary', 'pdf.portfolio_performance', 'pdf.market_title', 'pdf.projections', 'pdf.exit_analysis', 'pdf.rows_not_valued', 'pdf.disclaimer'] as MessageKey[]) {
      expect(pdf.text, key).toContain(spaced(xa.t(key)));
    }
    expect(pdf.text).not.toMatch(/\b(pdf|common)\.[a-z_0-9]+\b/);
    expect(englishLeft(pdf)).toEqual([]);
  });

  it('prints no unaccented English word but the report data\'s, the column labels\' and English dates', () => {
    // What others own: the data's words (names, descriptions, notes built in reports/build/), the
    // columns area's labels (labels.ts, history-labels.ts: language-aware on their branch), and
    // the month names of dates (en-XA formats numbers and dates as English).
    const words = (t: string) => t.match(/[A-Za-z]+/g) ?? [];
    // A note set as a sentence raises its first letter ("Not enough history: …"): both cases of the data's words.
    const allowed = new Set(words(dataText(pdf.data)).flatMap((w) => [w, w.charAt(0).toUpperCase() + w.slice(1)]));
    for (const e of pdf.data.exit_analysis.included ? pdf.data.exit_analysis.data : []) for (const code of [e.recommendation, e.signal, e.optimal_window]) words(readable(code)).forEach((w) => allowed.add(w));
    for (let m = 0; m < 12; m++)
      for (const month of ['long', 'short'] as const) allowed.add(new Intl.DateTimeFormat('en-GB', { month, timeZone: 'UTC' }).format(new Date(Date.UTC(2026, m, 1))));
    allowed.add('Sept').add('UTC');
    for (let m = 0; m < 12; m++) allowed.add(new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, m, 1))));
    const stray = [...new Set(pdf.text.match(/(?<![\p{L}\p{M}])[A-Za-z]{3,}(?![\p{L}\p{M}])/gu) ?? [])].filter((w) => !allowed.has(w));
    expect(stray).toEqual([]);
  });
});
