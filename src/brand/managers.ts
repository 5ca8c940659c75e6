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
 * holdings name it (its name, or its portfolio id). Throws a message naming the row and column.
 */
export function parseManagers(text: string): Map<string, Manager> {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
  } catch (e) {
    throw new Error(`is not a csv that can be read (${(e as Error).message})`);
  }
  const header = (rows[0] ?? []).map((h) => h.toLowerCase());
  if (COLUMNS.some((c, i) => header[i] !== c)) throw new Error(`must start with the header row ${COLUMNS.join(',')} (got "${(rows[0] ?? []).join(',')}")`);
  const managers = new Map<string, Manager>();
  rows.slice(1).forEach((cells, i) => {
    const row = i + 2;
    const [portfolio = '', name = '', email = '', phone = ''] = cells;
    if (!portfolio) throw new Error(`row ${row}: portfolio is empty; each row names the portfolio as the holdings do`);
    if (!name) throw new Error(`row ${row}: name is empty`);
    if (email && !EMAIL.test(email)) throw new Error(`row ${row}: email "${email}" is not an email address`);
    if (managers.has(portfolio)) throw new Error(`row ${row}: portfolio "${portfolio}" is listed twice`);
    managers.set(portfolio, { name, email, phone });
  });
  return managers;
}
