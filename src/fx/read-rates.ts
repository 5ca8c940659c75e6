import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import { InputError } from '../holdings/types';
import { ratesKind } from './provenance';
import { RateTable, type Quote } from './rate-table';

/** A rates file that cannot be used at all: the message names the file, the line and what is expected. */
export class RatesFileError extends InputError {
  override name = 'RatesFileError';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Z]{3}$/;

/**
 * Reads exchange rates from a CSV in one of two layouts:
 * - the ECB's historical reference rates as published (eurofxref-hist.csv): a `Date` column, then
 *   one column per currency with its rate per 1 EUR, `N/A` (or empty) where there is none, and a
 *   trailing comma on every line;
 * - a plain list: `date,currency,rate_per_eur`, one rate per line.
 */
export async function readRatesFile(path: string): Promise<RateTable> {
  return (await readRatesSource(path)).table;
}

/** readRatesFile, with the file's text and name as well (a queued run hands the text to its workers). */
export async function readRatesSource(path: string): Promise<{ text: string; name: string; table: RateTable }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new RatesFileError(`cannot read the exchange-rates file ${path} (--fx-rates): it does not exist or is not readable`);
  }
  return { text, name: basename(path), table: parseRates(text, basename(path)) };
}

export function parseRates(text: string, name = 'the rates file'): RateTable {
  let records: string[][];
  try {
    // Lines starting with # are comments (the demo's illustrative file says what it is that way; the ECB's has none).
    records = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true, comment: '#' });
  } catch (e) {
    throw new RatesFileError(`${name} is not a readable CSV file: ${(e as Error).message}`);
  }
  const header = (records[0] ?? []).map((h) => h.trim());
  const lower = header.map((h) => h.toLowerCase());
  const rows = records.slice(1);
  const quotes: Quote[] = [];
  const bad = (line: number, what: string): never => {
    throw new RatesFileError(`${name}, line ${line}: ${what}`);
  };
  const rate = (cell: string, line: number, currency: string): number | undefined => {
    if (cell === '' || cell.toUpperCase() === 'N/A') return undefined;
    const n = Number(cell);
    if (!Number.isFinite(n) || n <= 0) bad(line, `the ${currency} rate must be a positive number per 1 EUR, or N/A (found "${cell}")`);
    return n;
  };
  const date = (cell: string | undefined, line: number): string => {
    if (!cell || !DATE.test(cell) || Number.isNaN(Date.parse(`${cell}T00:00:00Z`))) bad(line, `the date must be YYYY-MM-DD (found "${cell ?? ''}")`);
    return cell!;
  };

  if (lower[0] === 'date' && lower[1] === 'currency' && (lower[2] === 'rate_per_eur' || lower[2] === 'rate')) {
    rows.forEach((r, k) => {
      const line = k + 2;
      const currency = (r[1] ?? '').toUpperCase();
      if (!CODE.test(currency)) bad(line, `currency must be a three-letter ISO 4217 code (found "${r[1] ?? ''}")`);
      const perEur = rate(r[2] ?? '', line, currency);
      if (perEur === undefined) return;
      quotes.push({ currency, date: date(r[0], line), perEur });
    });
  } else if (lower[0] === 'date') {
    // ECB layout: the trailing comma gives an empty last header, which is skipped.
    const columns = header.map((h, i) => ({ i, code: h.toUpperCase() })).slice(1).filter((c) => c.code !== '');
    for (const c of columns) if (!CODE.test(c.code)) throw new RatesFileError(`${name}: column "${c.code}" is not a three-letter currency code`);
    rows.forEach((r, k) => {
      const line = k + 2;
      const d = date(r[0], line);
      for (const c of columns) {
        const perEur = rate(r[c.i] ?? '', line, c.code);
        if (perEur !== undefined) quotes.push({ currency: c.code, date: d, perEur });
      }
    });
  } else {
    throw new RatesFileError(
      `${name}: the first line must be the ECB's header (Date,USD,JPY,…) or date,currency,rate_per_eur (found "${header.join(',').slice(0, 80)}")`,
    );
  }
  if (quotes.length === 0) throw new RatesFileError(`${name} holds no exchange rate`);
  return new RateTable(quotes, name, ratesKind(text, name));
}
