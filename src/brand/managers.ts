import { parse } from 'csv-parse/sync';
import { asLanguage, supportedLanguages, type Language } from '../i18n/languages';
import { nearest, type LocalText } from './local-text';

/** A portfolio's relationship manager, for the cover. */
export interface Manager {
  name: string;
  email: string;
  phone: string;
  /** Their title ("Relationship manager", "Kundenberaterin"), one or per language (issue 36): read with managerTitle. */
  title?: LocalText;
}

/**
 * The optional title columns after phone: "title" alone is the title in every language; with
 * "title_de", "title_fr-CH" … beside it, "title" is the firm's language's. Other columns are not read.
 */
function titleColumns(header: readonly string[], firmLanguage: Language): Map<number, Language | 'all'> {
  const columns = new Map<number, Language | 'all'>();
  const perLanguage = header.some((h) => /^title[_\s(-]+/.test(h));
  header.forEach((h, i) => {
    if (i < COLUMNS.length) return;
    if (h === 'title') columns.set(i, perLanguage ? firmLanguage : 'all');
    const m = /^title[_\s(-]+([a-z_-]+)\)?$/.exec(h);
    if (!m) return;
    const lang = asLanguage(m[1]!);
    // The column by its place, not its text: a message never quotes what the csv holds.
    if (!lang) throw new Error(`column ${i + 1} is a title column in no supported language${nearest(m[1]!)}; title columns are title or title_<language>, the languages ${supportedLanguages()}`);
    if ([...columns.values()].includes(lang)) throw new Error(`column ${i + 1}: a title in ${lang} is given by another column already`);
    columns.set(i, lang);
  });
  return columns;
}

const COLUMNS = ['portfolio', 'name', 'email', 'phone'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The managers csv (portfolio,name,email,phone, a header row first), keyed by portfolio as the
 * holdings name it (its name, or its portfolio id). Throws a message naming the row and column,
 * never quoting a cell (the message must not carry what a wrongly named file holds).
 */
export function parseManagers(text: string, firmLanguage: Language = 'en'): Map<string, Manager> {
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
  const titles = titleColumns(header, firmLanguage);
  const managers = new Map<string, Manager>();
  const firstRow = new Map<string, number>();
  rows.slice(1).forEach((cells, i) => {
    const row = i + 2;
    const [portfolio = '', name = '', email = '', phone = ''] = cells;
    if (!portfolio) throw new Error(`row ${row}: portfolio is empty; each row names the portfolio as the holdings do`);
    if (!name) throw new Error(`row ${row}: name is empty`);
    if (email && !EMAIL.test(email)) throw new Error(`row ${row}: email is not an email address`);
    if (managers.has(portfolio)) throw new Error(`row ${row}: its portfolio is listed already, on row ${firstRow.get(portfolio)}`);
    const title = rowTitle(cells, titles, firmLanguage, row);
    managers.set(portfolio, { name, email, phone, ...(title ? { title } : {}) });
    firstRow.set(portfolio, row);
  });
  return managers;
}

/** A row's title cells as one text or one per language; a title in other languages needs one in the firm's, to fall back on. */
function rowTitle(cells: readonly string[], columns: Map<number, Language | 'all'>, firmLanguage: Language, row: number): LocalText | undefined {
  const by: Partial<Record<Language, string>> = {};
  for (const [i, lang] of columns) {
    const t = cells[i]?.trim();
    if (!t) continue;
    if (t.length > 120) throw new Error(`row ${row}: a title is longer than 120 characters`);
    if (lang === 'all') return { all: t };
    by[lang] = t;
  }
  if (Object.keys(by).length === 0) return undefined;
  if (by[firmLanguage] === undefined) throw new Error(`row ${row}: gives a title in ${Object.keys(by).join(', ')} but none in ${firmLanguage}, the firm's language, which a client in another language reads`);
  return { by };
}
