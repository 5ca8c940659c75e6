/** The holdings CSV's insurance columns (issue 37): headers in English keys or the report's language, values the review's. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { makeReportData } from '../../fixtures/report-data';
import { writeCsv } from '../../reports/writers/csv';
import { insuranceReview } from '../../src/insurance';
import { translator } from '../../src/i18n';

const dir = mkdtempSync(join(tmpdir(), 'insurance-csv-'));
const generated = makeReportData({ holdings: 4 });
// Its holdings are generated lazily: taken once, so the review and the CSV see the same rows.
const base = { ...generated, holdings: [...generated.holdings] };
// Every other holding insured at 80 % of its high estimate: under-insured with the default tolerance.
const insurance = insuranceReview(
  base.holdings.map((h, i) => ({ row: h.row, asset_id: h.asset_id, description: h.description, mid: h.current_value, high: h.value_high, insured_value: i % 2 === 0 ? Math.round(h.value_high * 0.8) : null })),
  { basis: 'high', tolerance: 0.1, overInsuredFactor: 1.25, renewalWindowDays: 60, asOf: base.cover.as_of },
);

describe('the holdings CSV with a review', () => {
  it('headers in German from the insurance area, after the others; cells as the review says; empty for a row it leaves out', async () => {
    const file = join(dir, 'de.csv');
    const lessOne = { ...insurance, items: insurance.items.filter((i) => i.row !== base.holdings[3]!.row) };
    await writeCsv({ ...base, language: 'de', insurance: lessOne }, file, { headers: 'language' });
    const [header, ...rows] = parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as string[][];
    const de = translator('de');
    expect(header!.slice(-4)).toEqual([de.t('insurance.insured_value'), de.t('insurance.replacement_value'), de.t('insurance.gap'), de.t('insurance.status')]);
    expect(header!.slice(-4)).toEqual(['Versicherungswert', 'Wiederbeschaffungswert', 'Deckungslücke', 'Deckungsstatus']);
    for (const [i, h] of base.holdings.entries()) {
      const item = lessOne.items.find((x) => x.row === h.row);
      const cells = rows[i]!.slice(-4);
      if (!item) expect(cells).toEqual(['', '', '', '']);
      else expect(cells).toEqual([item.insured_value === null ? '' : String(item.insured_value), String(Math.round(item.replacement_value * 100) / 100), item.gap === null ? '' : String(item.gap), item.status]);
    }
  });

  it('no review: the CSV is as before, without insurance columns', async () => {
    const file = join(dir, 'plain.csv');
    await writeCsv(base, file);
    const [header] = parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as string[][];
    expect(header!.at(-1)).toBe('sandbox');
  });
});
