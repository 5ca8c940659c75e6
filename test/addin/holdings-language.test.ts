import { afterEach, describe, expect, it } from 'vitest';
import holdingsEnglish from '../../src/i18n/messages/holdings/en.json';
import { translator } from '../../src/i18n';
import { describeRowProblem, holdingForAssetId, readHoldingsGrid } from '../../addin/src/shared/holdings';
import type { Holding, RawRecord, RowProblem } from '../../src/holdings/types';
import { englishReason, sayReason, type RowReason } from '../../src/holdings/row-reasons';
import { toHolding } from '../../src/holdings/holding';
import { readCover } from '../../src/holdings/cover';
import { requireCurrency } from '../../src/holdings/currency';

/**
 * The holdings reader's reasons in a cell in Excel's display language (issue 36): the reader
 * (src/holdings) gives each reason as a `holdings` catalogue message besides its English sentence;
 * the report prints the English exactly as before (the message's English is that sentence, proved
 * here for every kind of reason), the add-in says the message in Excel's language.
 */
const COLUMNS = ['asset_id', 'segment', 'brand', 'producer', 'artist', 'model', 'title', 'year', 'condition', 'box_papers', 'quantity', 'purchase_price', 'purchase_date', 'currency', 'width_cm', 'height_cm', 'notes'] as const;
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
  // A cell's own hint, inside the field's sentence: a decimal mark, a date as people write it, a day that is not.
  { ...watch, purchase_price: '12.500' },
  { ...watch, purchase_date: '31/12/2023' },
  { ...watch, purchase_date: '01/02/2023' },
  { ...watch, purchase_date: '31/02/2025' },
  { ...watch, purchase_date: '2025-02-31' },
  { ...watch, purchase_date: '2025-13-01' },
  // A control character in a name, and in notes (whose line breaks are kept).
  { ...watch, model: 'Sub\u0000mariner' },
  { ...watch, notes: 'first line\nsecond\u0007' },
];
const grid = (rows: Row[]) => [[...COLUMNS], ...rows.map((r) => COLUMNS.map((c) => r[c] ?? null))];

/** Every problem of the bad rows, read as the report reads a table. */
function problems(): RowProblem[] {
  return readHoldingsGrid(grid(BAD), { purpose: 'report' }).rows.flatMap((r) => ('problems' in r ? r.problems : []));
}

const record = (values: Record<string, unknown>, row = 2): RawRecord => ({ source: { file: 'holdings.csv', row }, values });
/** Reasons the add-in's table never gives but a report's rows do: declared decimal marks, cover cells, another currency. */
function reportProblems(): RowProblem[] {
  const asOf = '2026-10-31';
  const declared = (mark: '.' | ',') => ({ asOf, decimalMarks: { purchase_price: { mark, declared: true } } });
  const declaredRows = [toHolding(record({ ...watch, purchase_price: '12,5' }), 'P', declared('.')), toHolding(record({ ...watch, purchase_price: '1.5' }), 'P', declared(','))];
  const cover = [
    { insured_value: 'lots', insured_currency: 'dollars', renewal_date: '31/02/2025' },
    { insured_value: '12.500', renewal_date: '2025-02-31' },
    { renewal_date: 'soon' },
    { renewal_date: '2025-13-01' },
  ].flatMap((values) => readCover(record(values), 'P').problems);
  const currencies = [undefined, (code: string) => code === 'GBP'].flatMap((converts) => {
    const holdings = [record(watch), record({ ...watch, currency: 'EUR' }, 3)].map((r) => (toHolding(r, 'P', { asOf }) as { holding: Holding }).holding);
    const portfolio = { name: 'P', files: ['holdings.csv'], holdings, problems: [] as RowProblem[] };
    requireCurrency([portfolio], 'USD', converts);
    return portfolio.problems;
  });
  return [...declaredRows.flatMap((r) => ('problems' in r ? r.problems : [])), ...cover, ...currencies];
}

/** A reason's key and the keys of the reasons inside it (a hint inside a date's sentence). */
const keysOf = (r: RowReason): string[] => [r.key, ...Object.values(r.values ?? {}).flatMap((v) => (typeof v === 'object' && v !== null && 'key' in v ? keysOf(v) : []))];

/** Excel's display language, as office.js gives it to the page. */
function excelIn(culture: string | undefined): void {
  (globalThis as { Office?: unknown }).Office = culture ? { context: { displayLanguage: culture } } : undefined;
}
afterEach(() => excelIn(undefined));

describe('the holdings reader’s reasons as catalogue messages', () => {
  it('every kind of reason has its message, and its English is the sentence the report prints', () => {
    const all = [...problems(), ...reportProblems()];
    expect(all.length).toBeGreaterThanOrEqual(BAD.length);
    // Every reason of these rows has its message: none is left as English only.
    expect(all.filter((p) => !p.said).map((p) => p.reason)).toEqual([]);
    for (const p of all) expect(englishReason(p.said!), p.reason).toBe(p.reason);
    // Each message of the area is given by some row (a message no reason uses would be dead).
    const used = new Set<string>(all.flatMap((p) => keysOf(p.said!)));
    expect(Object.keys(holdingsEnglish).map((k) => `holdings.${k}`).filter((k) => !used.has(k))).toEqual([]);
    // The English the report has always printed, spelt out for two of them (not from the catalogue).
    expect(all.map((p) => p.reason)).toEqual(expect.arrayContaining(['brand is required', 'producer (or brand) is required', 'quantity must be a whole number from 1 to 100000', 'model is longer than 200 characters']));
    // And for the hints, the control characters, the cover and the currencies (as main printed them before they moved).
    expect(all.map((p) => p.reason)).toEqual(
      expect.arrayContaining([
        'purchase_price is ambiguous: 12500 if "." separates thousands, or 12.5 if "." is the decimal mark. Declare the file\'s convention (svc-report --decimal-comma for 1.234,56 or --no-decimal-comma for 1,234.56; or "decimal_comma" in the config file) or write the amount without thousands separators',
        'purchase_price is not a number with a decimal point, as the file\'s amounts are declared (1,234.56)',
        'purchase_date must be a date as YYYY-MM-DD: write 2023-02-01 (day first) or 2023-01-02 (month first)',
        'purchase_date must be a date that exists, as YYYY-MM-DD: there is no 31 February 2025 (it has 28 days): write a day that exists, such as its last, 2025-02-28',
        'model must not contain control characters (U+0000 at character 4); line breaks and tabs are allowed and read as spaces',
        'notes must not contain control characters (U+0007 at character 18); line breaks and tabs are allowed and read as line breaks and spaces',
        'insured_value must be a number of 0 or more, such as 250000 or 250,000.00 (the agreed value on the policy, all units, in the row\'s currency or insured_currency); the holding is still valued, without this cover field',
        'renewal_date must be a date as YYYY-MM-DD: there is no 31 February 2025 (it has 28 days): write a day that exists, such as its last, 2025-02-28; the holding is still valued, without this cover field',
        'currency EUR differs from the report currency USD: give an exchange-rates file with --fx-rates, or run with --currency EUR',
        'currency EUR is not in the exchange-rates file (--fx-rates): add its rates, or convert purchase_price to USD',
      ]),
    );
  });

  it.each(['de', 'de-CH', 'fr', 'it', 'es', 'zh-Hans', 'ja', 'ar'] as const)('the hints, control characters, cover and currency reasons said in %s: no English sentence left', (lang) => {
    const tr = translator(lang);
    for (const p of reportProblems().concat(problems())) {
      const said = sayReason(tr, p.said!);
      expect(said, said).not.toBe(p.reason);
      // Words of the English sentences, never the field names, codes and dates they quote.
      expect(said, said).not.toMatch(/\b(must|required|write|there is no|February|ambiguous|separates|declared|control characters|still valued|differs|exchange-rates file|day first)\b/);
    }
    // de-CH says it as de does (its chain); the month's name is the language's.
    if (lang === 'de-CH') expect(sayReason(tr, reportProblems().find((p) => p.field === 'renewal_date')!.said!)).toBe(sayReason(translator('de'), reportProblems().find((p) => p.field === 'renewal_date')!.said!));
    if (lang === 'de') expect(sayReason(tr, reportProblems().find((p) => p.field === 'renewal_date')!.said!)).toContain('31. Februar 2025');
    if (lang === 'ja') expect(sayReason(tr, reportProblems().find((p) => p.field === 'renewal_date')!.said!)).toContain('2025年2月31日');
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
      expect(s.text).toContain(sayReason(tr, s.said!));
      expect(s.text, s.text).not.toMatch(/\b(must|required|Row|whole|number|give both|write|there is no|ambiguous|control characters)\b/);
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

