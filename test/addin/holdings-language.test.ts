import { afterEach, describe, expect, it } from 'vitest';
import holdingsEnglish from '../../src/i18n/messages/holdings/en.json';
import { translator } from '../../src/i18n';
import { describeRowProblem, holdingForAssetId, readHoldingsGrid } from '../../addin/src/shared/holdings';
import type { RowProblem } from '../../src/holdings/types';

/**
 * The holdings reader's reasons in a cell in Excel's display language (issue 36): the reader
 * (src/holdings) gives each reason as a `holdings` catalogue message besides its English sentence;
 * the report prints the English exactly as before (the message's English is that sentence, proved
 * here for every kind of reason), the add-in says the message in Excel's language.
 */
const COLUMNS = ['asset_id', 'segment', 'brand', 'producer', 'artist', 'model', 'title', 'year', 'condition', 'box_papers', 'quantity', 'purchase_price', 'purchase_date', 'currency', 'width_cm', 'height_cm'] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string | number>>;
const watch: Row = { segment: 'watches', brand: 'Rolex', model: 'Submariner', purchase_price: 9000, purchase_date: '2020-05-01' };
/** One row per kind of reason the reader gives (each row wrong in one way). */
const BAD: Row[] = [
  { ...watch, asset_id: 'NOT-AN-ID' },
  { ...watch, segment: 'boats' },
  { ...watch, condition: 'mint-ish' },
  { ...watch, segment: undefined },
  { ...watch, brand: undefined },
  { ...watch, model: undefined },
  { ...watch, segment: 'wine', brand: undefined },
  { ...watch, segment: 'art', model: undefined },
  { ...watch, year: 1500 },
  { ...watch, box_papers: 'maybe' },
  { ...watch, quantity: 0 },
  { ...watch, purchase_price: undefined },
  { ...watch, purchase_price: -5 },
  { ...watch, purchase_date: undefined },
  { ...watch, purchase_date: 'yesterday' },
  { ...watch, purchase_date: '2999-01-01' },
  { ...watch, currency: 'DOLLARS' },
  { ...watch, width_cm: -3, height_cm: 20 },
  { ...watch, width_cm: 50 },
  { ...watch, model: 'x'.repeat(300) },
];
const grid = (rows: Row[]) => [[...COLUMNS], ...rows.map((r) => COLUMNS.map((c) => r[c] ?? null))];

/** Every problem of the bad rows, read as the report reads a table. */
function problems(): RowProblem[] {
  return readHoldingsGrid(grid(BAD), { purpose: 'report' }).rows.flatMap((r) => ('problems' in r ? r.problems : []));
}

/** Excel's display language, as office.js gives it to the page. */
function excelIn(culture: string | undefined): void {
  (globalThis as { Office?: unknown }).Office = culture ? { context: { displayLanguage: culture } } : undefined;
}
afterEach(() => excelIn(undefined));

describe('the holdings reader’s reasons as catalogue messages', () => {
  it('every kind of reason has its message, and its English is the sentence the report prints', () => {
    const all = problems();
    expect(all.length).toBeGreaterThanOrEqual(BAD.length);
    const en = translator('en');
    for (const p of all.filter((x) => x.said)) expect(en.t(p.said!.key, p.said!.values), p.reason).toBe(p.reason);
    // Each message of the area is given by some row (a message no reason uses would be dead).
    const used = new Set<string>(all.flatMap((p) => (p.said ? [p.said.key] : [])));
    expect(Object.keys(holdingsEnglish).map((k) => `holdings.${k}`).filter((k) => !used.has(k))).toEqual([]);
    // The English the report has always printed, spelt out for two of them (not from the catalogue).
    expect(all.map((p) => p.reason)).toEqual(expect.arrayContaining(['brand is required', 'producer (or brand) is required', 'quantity must be a whole number from 1 to 100000', 'model is longer than 200 characters']));
  });

  it.each([
    ['de-DE', 'de', 'Zeile'],
    ['ja-JP', 'ja', '行目'],
    ['ar-SA', 'ar', 'الصف'],
  ] as const)('a row in a cell in Excel %s: the row, the field and the reason in the language', (culture, lang, row) => {
    excelIn(culture);
    const tr = translator(lang);
    const rows = readHoldingsGrid(grid(BAD)).rows;
    const said = rows.flatMap((r) => ('problems' in r ? [{ text: describeRowProblem(r.row, r.problems), said: r.problems[0]!.said }] : []));
    expect(said.length).toBeGreaterThan(10);
    for (const s of said.filter((x) => x.said)) {
      expect(s.text).toContain(row);
      expect(s.text).toContain(tr.t(s.said!.key, s.said!.values));
      expect(s.text, s.text).not.toMatch(/\b(must|required|Row|whole|number|give both)\b/);
    }
    expect(() => holdingForAssetId('asset', 'NOT-AN-ID')).toThrow(tr.t('addin.arg_asset_problem', { name: 'asset', reason: tr.t('holdings.asset_id_form', { field: 'asset_id' }), got: 'NOT-AN-ID' }));
  });

  it('in English the cell says what it said before the catalogue', () => {
    excelIn('en-US');
    const rows = readHoldingsGrid(grid([{ ...watch, quantity: 0 }])).rows;
    const r = rows[0]!;
    expect('problems' in r && describeRowProblem(r.row, r.problems)).toBe('Row 2, quantity: quantity must be a whole number from 1 to 100000.');
    expect(describeRowProblem(7, [])).toBe('Row 7 could not be read.');
    expect(() => holdingForAssetId('asset', 'NOT-AN-ID')).toThrow('asset: asset_id must look like SVC-WAT-ROLEX-126610LN-2021 (SVC, a segment code, brand code, reference, optional year) (got "NOT-AN-ID").');
  });

  it('a header a slip away from a column: the sentence in the language; in English the reader’s own, as svc-report says it', () => {
    const slips = [['segment', 'brand', 'model', 'Curency', 'Quantiy'], ['watches', 'Rolex', 'Submariner', 'USD', 2]];
    excelIn('en-US');
    expect(readHoldingsGrid(slips).columnProblem).toBe(
      'The header row: the columns "Curency" (did you mean currency?) and "Quantiy" (did you mean quantity?) are not ones the reports read, so their values would be left out without a word (every price would be taken to be in the report\'s currency; every holding would be valued as one unit). Rename the header to currency, or give the column another name, or leave it out of the table.',
    );
    for (const [culture, lang] of [['de-DE', 'de'], ['ja-JP', 'ja']] as const) {
      excelIn(culture);
      const tr = translator(lang);
      const said = readHoldingsGrid(slips).columnProblem!;
      expect(said).toContain(tr.t('addin.header_effect_currency'));
      expect(said).toContain(tr.t('addin.header_close_miss_item', { header: 'Quantiy', column: 'quantity' }));
      expect(said, said).not.toMatch(/\b(the|column|header|would|Rename|mean)\b/);
    }
  });
});

