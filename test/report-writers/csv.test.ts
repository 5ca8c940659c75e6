import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { csvNumber, csvText, writeCsv } from '../../reports/writers/csv';
import { neutraliseCellText } from '../../reports/writers/neutralise';
import { holdingColumns } from '../../reports/writers/holding-columns';
import type { Holding } from '../../reports/report-data';
import { INJECTION_DESCRIPTIONS, makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

const data = makeReportData({ holdings: 60, injections: true, errors: 4, previous: true });
/** A client report's columns (no Portfolio column). */
const HOLDING_COLUMNS = holdingColumns(data);
const holdings = [...data.holdings] as Holding[];
let raw: Buffer;
let records: string[][];

beforeAll(async () => {
  const file = path.join(tempDir('csv'), 'report.csv');
  await writeCsv(data, file);
  raw = readFileSync(file);
  records = parse(raw, { bom: true, relax_quotes: false }) as string[][];
});

describe('CSV writer', () => {
  it('starts with a UTF-8 BOM and separates records with CRLF (RFC 4180)', () => {
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8');
    const lineBreaks = text.match(/\r?\n/g) ?? [];
    expect(lineBreaks.length).toBeGreaterThanOrEqual(61);
    // Every record ends in CRLF; the only bare LF would be inside a quoted field (none here).
    expect(lineBreaks.every((b) => b === '\r\n')).toBe(true);
  });

  it('parses back to one record per holding with the snake_case header', () => {
    expect(records[0]).toEqual([...HOLDING_COLUMNS.map((c) => c.key), 'currency', 'sandbox']);
    expect(new Set(records.slice(1).map((r) => r.slice(-2).join(' ')))).toEqual(new Set(['USD true']));
    expect(records).toHaveLength(61);
    expect(records.slice(1).map((r) => Number(r[0]))).toEqual(holdings.map((h) => h.row));
  });

  it('neutralises formula injection with a leading quote, and keeps quotes doubled inside quoted fields', () => {
    const d = HOLDING_COLUMNS.findIndex((c) => c.key === 'description');
    const descriptions = records.slice(1, 1 + INJECTION_DESCRIPTIONS.length).map((r) => r[d]);
    expect(descriptions).toEqual(INJECTION_DESCRIPTIONS.map((d) => `'${d}`));
    // The raw text shows RFC 4180 quoting of the HYPERLINK formula: quotes doubled, field quoted.
    expect(raw.toString('utf8')).toContain(`"'=HYPERLINK(""http://x"",""click"")"`);
    for (const r of records.slice(1)) expect(r[d]).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('writes numbers unquoted with a dot decimal and no thousands separators', () => {
    const text = raw.toString('utf8');
    const firstPlain = text.split('\r\n')[1 + INJECTION_DESCRIPTIONS.length]!;
    const cells = firstPlain.split(',');
    const h = holdings[INJECTION_DESCRIPTIONS.length]!;
    const costIndex = HOLDING_COLUMNS.findIndex((c) => c.key === 'purchase_price');
    expect(cells[costIndex]).toBe(String(h.purchase_price));
    expect(cells[costIndex]).toMatch(/^-?\d+(\.\d{1,2})?$/);
    for (const r of records.slice(1)) {
      for (const [i, c] of HOLDING_COLUMNS.entries()) {
        if (['money', 'percent', 'ratio', 'int', 'rate'].includes(c.kind) && r[i] !== '') expect(r[i], `${c.key}`).toMatch(/^-?\d+(\.\d+)?$/);
      }
    }
  });

  it('leaves null values empty, never 0', () => {
    const momIndex = HOLDING_COLUMNS.findIndex((c) => c.key === 'month_on_month_change');
    const withoutPrevious = holdings.findIndex((h) => h.month_on_month_change === null);
    expect(withoutPrevious).toBeGreaterThanOrEqual(0);
    expect(records[1 + withoutPrevious]![momIndex]).toBe('');
  });

  it('round-trips text with commas, quotes, line breaks and non-ASCII', () => {
    for (const text of ['Château, "Grand Vin"', 'line one\r\nline two', 'Hermès — Birkin 30', 'plain']) {
      const records = parse(csvText(text)) as string[][];
      expect(records).toEqual([[text]]);
    }
  });

  it('uses one rule for formula injection, shared with the spreadsheet writer', () => {
    for (const t of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseCellText(t)).toBe(`'${t}`);
    for (const t of ['Rolex', '1+1', 'a=b', '', "'already"]) expect(neutraliseCellText(t)).toBe(t);
    expect(csvNumber(1234567.891, 'money')).toBe('1234567.89');
    expect(csvNumber(-0.123456, 'percent')).toBe('-0.1235');
    expect(csvNumber(Number.NaN, 'money')).toBe('');
  });

  it('streams a large lazily generated portfolio to the end', async () => {
    const big = makeReportData({ holdings: 20_000, seed: 9 });
    const file = path.join(tempDir('csv-big'), 'big.csv');
    await writeCsv(big, file);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\r\n').filter((l) => l !== '')).toHaveLength(20_001);
    const valueIndex = HOLDING_COLUMNS.findIndex((c) => c.key === 'current_value');
    const total = parse(text, { bom: true, from_line: 2 }).reduce((s: number, r: string[]) => s + Number(r[valueIndex]), 0);
    expect(total).toBeCloseTo(big.summary.current_value, 0);
  });
});
