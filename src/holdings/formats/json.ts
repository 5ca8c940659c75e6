import { checkRowCount } from '../limits';
import { InputError, type RawRecord } from '../types';
import { columnForHeader, type Column } from '../columns';
import type { RawTable } from './table';

/**
 * A JSON holdings file: an array of holdings; or { "portfolio": name, "holdings": [...] };
 * or { "portfolios": { name: [...], ... } }. Items are numbered from 1 in each array.
 */
export function readJson(content: string, file: string, portfolio: string): RawTable[] {
  let doc: unknown;
  try {
    doc = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new InputError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(doc)) return [table(doc, file, portfolio)];
  if (isObject(doc) && Array.isArray(doc.holdings)) {
    return [table(doc.holdings, file, typeof doc.portfolio === 'string' && doc.portfolio.trim() ? doc.portfolio.trim() : portfolio)];
  }
  if (isObject(doc) && isObject(doc.portfolios)) {
    return Object.entries(doc.portfolios).map(([name, items]) => {
      if (!Array.isArray(items)) throw new InputError(`${file}: portfolios.${name} must be an array of holdings`);
      return table(items, file, name);
    });
  }
  throw new InputError(`${file} must hold an array of holdings, {"holdings": [...]} or {"portfolios": {"name": [...]}}`);
}

function table(items: unknown[], file: string, portfolio: string): RawTable {
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
        if (key === 'size_cm' && isObject(value)) {
          take('width_cm', 'size_cm', value.width);
          take('height_cm', 'size_cm', value.height);
          continue;
        }
        const col = columnForHeader(key);
        if (col) take(col, key, value);
        else unknown.add(key);
      }
      if ('segment' in values || 'asset_id' in values) recognised = true;
    }
    return { source: { file, row: i + 1 }, values };
  });
  return { portfolio, file, records, unknownHeaders: [...unknown], columns: [...present], duplicates, recognised };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
