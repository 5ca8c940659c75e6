/**
 * Issue 34's small points in the PDF, read back with pdftotext: counts in the client's words
 * ("1 holding in 1 segment"), no "cost-weighted holding period" on a card. (A heading kept with
 * its table: table-heading.test.ts.)
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeReportData } from '../../fixtures/report-data';
import { writePdf } from '../../reports/writers';
import { folded, pdfText, tempDir } from './tools';

/** "2026-10-03" as the PDF's long dates print it, independently of the writer: "3 October 2026". */
const longDate = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

describe('the summary card in client words', () => {
  it('counts one holding in one segment in the singular; the yearly return card has no jargon', async () => {
    const data = makeReportData({ holdings: 1 });
    data.summary.annualised_return_percent = 7.5;
    const file = join(tempDir('words'), 'one.pdf');
    await writePdf(data, file);
    const text = folded(await pdfText(file));
    expect(text).toContain('1 holding in 1 segment');
    expect(text).not.toMatch(/1 holdings|1 segments/);
    expect(text).toContain('a year, since each purchase');
    expect(text).not.toMatch(/cost-weighted/i);
    // The figure notes say why a return is missing, in the words the JSON carries.
    expect(text).toContain(`Not available: ${data.summary.returns_unavailable.month_on_month}.`);
  }, 60_000);
});
