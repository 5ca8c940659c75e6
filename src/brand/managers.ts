import { parse } from 'csv-parse/sync';

/** A portfolio's relationship manager, for the cover. */
export interface Manager {
  name: string;
  email: string;
  phone: string;
}

const COLUMNS = ['portfolio', 'name', 'email', 'phone'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The managers csv (portfolio,name,email,phone, a header row first), keyed by portfolio as the
 * holdings name it (its name, or its portfolio id). Throws a message naming the row and column,
 * never quoting a cell (the message must not carry what a wrongly named file holds).
 */
export function parseManagers(text: string): Map<string, Manager> {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
  } catch (e) {
    // csv-parse's message can quote a field; only the line is said.
    const line = (e as { lines?: number }).lines;
    throw new Error(`is not a csv that can be read${line ? ` (near line ${line})` : ''}`);
  }
  const header = (rows[0] ?? []).map((h) => h.toLowerCase());
  if (COLUMNS.some((c, i) => header[i] !== c)) throw new Error(`must start with the header row ${COLUMNS.join(',')} (its first row is something else)`);
  const managers = new Map<string, Manager>();
  const firstRow = new Map<string, number>();
  rows.slice(1).forEach((cells, i) => {
    const row = i + 2;
    const [portfolio = '', name = '', email = '', phone = ''] = cells;
    if (!portfolio) throw new Error(`row ${row}: portfolio is empty; each row names the portfolio as the holdings do`);
    if (!name) throw new Error(`row ${row}: name is empty`);
    if (email && !EMAIL.test(email)) throw new Error(`row ${row}: email is not an email address`);
    if (managers.has(portfolio)) throw new Error(`row ${row}: its portfolio is listed already, on row ${firstRow.get(portfolio)}`);
    managers.set(portfolio, { name, email, phone });
    firstRow.set(portfolio, row);
  });
  return managers;
}
