import { checkRowCount } from '../limits';
import { InputError, type RawRecord } from '../types';
import { HOLDINGS_VOCABULARY, columnForHeader, type Column, type Vocabulary } from '../columns';
import type { RawTable } from './table';

/**
 * A JSON holdings file: an array of holdings; or { "portfolio": name, "holdings": [...] };
 * or { "portfolios": { name: [...], ... } }. Items are numbered from 1 in each array. A
 * transactions file is the same with "transactions" for "holdings".
 */
export function readJson(content: string, file: string, portfolio: string, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): RawTable[] {
  const noun = vocabulary.noun;
  let doc: unknown;
  try {
    doc = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new InputError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(doc)) return [table(doc, file, portfolio, vocabulary)];
  if (isObject(doc) && Array.isArray(doc[noun])) {
    return [table(doc[noun] as unknown[], file, typeof doc.portfolio === 'string' && doc.portfolio.trim() ? doc.portfolio.trim() : portfolio, vocabulary)];
  }
  if (isObject(doc) && isObject(doc.portfolios)) {
    return Object.entries(doc.portfolios).map(([name, items]) => {
      if (!Array.isArray(items)) throw new InputError(`${file}: portfolios.${name} must be an array of ${noun}`);
      return table(items, file, name, vocabulary);
    });
  }
  throw new InputError(`${file} must hold an array of ${noun}, {"${noun}": [...]} or {"portfolios": {"name": [...]}}`);
}

function table(items: unknown[], file: string, portfolio: string, vocabulary: Vocabulary): RawTable {
  checkRowCount(file, items.length);
  const unknown = new Set<string>();
  const present = new Set<Column>();
  const duplicates: string[] = [];
  let recognised = items.length === 0;
  const records: RawRecord[] = items.map((item, i) => {
    const values: Record<string, unknown> = {};
    if (isObject(item)) {
      const keyOf = new Map<Column, string>();
      const take = (col: Column, key: string, value: unknown) => {
        const other = keyOf.get(col);
        if (other !== undefined && duplicates.length < 5) duplicates.push(`item ${i + 1} has the keys "${other}" and "${key}", which both mean ${col}: keep one`);
        keyOf.set(col, key);
        values[col] = value;
        present.add(col);
      };
      for (const [key, value] of Object.entries(item)) {
        if (key === 'size_cm' && isObject(value) && vocabulary.columns.includes('width_cm')) {
          take('width_cm', 'size_cm', value.width);
          take('height_cm', 'size_cm', value.height);
          continue;
        }
        const col = columnForHeader(key, vocabulary);
        if (col) take(col, key, value);
        else unknown.add(key);
      }
      if (vocabulary.recognisedBy.some((c) => c in values)) recognised = true;
    }
    return { source: { file, row: i + 1 }, values };
  });
  return { portfolio, file, records, unknownHeaders: [...unknown], columns: [...present], duplicates, recognised };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
