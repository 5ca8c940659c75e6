/**
 * The workbook and the CSV in the report's language (issue 36), read back with openpyxl and
 * csv-parse: en-XA proves no English catalogue text is left (every header and label accented,
 * sheet names within Excel's 31 characters), de and ja that the headings are the translations,
 * the number formats are the locale's and every cross-sheet reference names a sheet that exists.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDashboardData, makeReportData } from '../../fixtures/report-data';
import { writeXlsx } from '../../reports/writers/xlsx';
import { writeDashboardXlsx } from '../../reports/writers/dashboard-xlsx';
import { writeCsvFiles } from '../../reports/writers/csv';
import { excelSheetName } from '../../reports/writers/xlsx-book';
import { AREAS } from '../../src/i18n/catalogues';
import { translator, type Language } from '../../src/i18n';
import { tempDir } from './tools';

interface Sheet { name: string; rows: (string | number | boolean | null)[][]; formats: string[] }
interface Book { sheets: Sheet[]; language: string | null; title: string | null; keywords: string | null }

/** Every sheet's values (the first 40 rows) and the number formats used, and the core properties, as openpyxl reads them. */
const READ = `
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = {"sheets": [], "language": wb.properties.language, "title": wb.properties.title, "keywords": wb.properties.keywords}
for ws in wb.worksheets:
    rows, formats = [], set()
    for row in ws.iter_rows(max_row=40):
        rows.append([c.value if not hasattr(c.value, "isoformat") else c.value.isoformat() for c in row])
        formats.update(c.number_format for c in row if c.value is not None)
    out["sheets"].append({"name": ws.title, "rows": rows, "formats": sorted(formats)})
print(json.dumps(out, default=str))
`;
const openpyxl = (file: string): Book => JSON.parse(execFileSync('/usr/bin/python3', ['-c', READ, file], { encoding: 'utf8', maxBuffer: 64 << 20 })) as Book;

const dir = tempDir('xlsx-i18n');
const books = {} as Record<'en' | 'de' | 'ja' | 'en-XA' | 'dash-XA', Book>;
const zips = {} as Record<string, JSZip>;
const data = (language: Language) => ({ ...makeReportData({ holdings: 12, previous: true, history: true, errors: 2 }), language });
let csvDe: string[][];
let gainsDe: string[][];

beforeAll(async () => {
  for (const lang of ['en', 'de', 'ja', 'en-XA'] as const) {
    const file = path.join(dir, `${lang}.xlsx`);
    await writeXlsx(data(lang), file);
    books[lang] = openpyxl(file);
    zips[lang] = await JSZip.loadAsync(readFileSync(file));
  }
  const dash = path.join(dir, 'dash-XA.xlsx');
  await writeDashboardXlsx({ ...makeDashboardData(), language: 'en-XA' }, dash);
  books['dash-XA'] = openpyxl(dash);
  const csv = path.join(dir, 'de.csv');
  const [gains] = await writeCsvFiles(data('de'), csv, { headers: 'localised' });
  csvDe = parse(readFileSync(csv, 'utf8'), { bom: true }) as string[][];
  gainsDe = parse(readFileSync(gains!, 'utf8'), { bom: true }) as string[][];
}, 180_000);

/** Every English message of the areas this writer owns (and common), longer than a word: none may be left in a pseudo-locale book. */
const englishSentences = (): string[] =>
  [...Object.values(AREAS.columns.en), ...Object.values(AREAS.xlsx.en), ...Object.values(AREAS.common.en)].filter((m) => !m.includes('{') && m.length > 3);

/** The header row, labels and notes a writer put in (text cells), not the data's own strings (client, asset names, notes from the data). */
const textCells = (b: Book) => b.sheets.flatMap((s) => s.rows.flat()).filter((v): v is string => typeof v === 'string');

describe('en-XA: nothing hard-coded', () => {
  it('names every sheet in the pseudo-locale, within 31 characters and unique', () => {
    for (const b of [books['en-XA'], books['dash-XA']]) {
      const names = b.sheets.map((s) => s.name);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      for (const n of names) {
        expect(n.length).toBeLessThanOrEqual(31);
        expect(n).not.toMatch(/[[\]:*?/\\]/);
        expect(n, n).toMatch(/[À-ɏ]/); // accented: no English sheet name left
      }
    }
  });

  it('leaves no English catalogue text in any cell, and every header is accented', () => {
    for (const b of [books['en-XA'], books['dash-XA']]) {
      const cells = new Set(textCells(b));
      for (const m of englishSentences()) expect(cells.has(m), `"${m}" left in English`).toBe(false);
      for (const s of b.sheets) {
        // Row 1 is a header on every tabular sheet; on Summary and Notes the first cell is the title.
        for (const h of s.rows[0]!.filter((v): v is string => typeof v === 'string' && v !== '')) expect(h, `${s.name}: ${h}`).toMatch(/[À-ɏ]/);
      }
    }
  });

  it('writes the document language into the properties', () => {
    expect(books['en-XA'].language).toBe('en-XA');
    expect(books['en-XA'].title).toMatch(/[À-ɏ]/);
  });
});

describe('de and ja: translated headings, locale formats, references that resolve', () => {
  it('names the sheets and the Holdings headers in the language', () => {
    const de = translator('de');
    expect(books.de.sheets.map((s) => s.name)).toContain(de.t('xlsx.sheet_summary'));
    expect(books.de.sheets.map((s) => s.name)).toEqual(expect.arrayContaining(['Übersicht', 'Positionen', 'Wertentwicklung', 'Realisierte Gewinne', 'Ausstiegsanalyse']));
    expect(books.ja.sheets.map((s) => s.name)).toEqual(expect.arrayContaining(['概要', '保有資産', '評価額の推移', '実現損益']));
    const holdingsDe = books.de.sheets.find((s) => s.name === 'Positionen')!;
    expect(holdingsDe.rows[0]).toEqual(expect.arrayContaining(['Beschreibung', 'Einstandswert (USD)', 'Marktvalidiert']));
    const holdingsJa = books.ja.sheets.find((s) => s.name === '保有資産')!;
    expect(holdingsJa.rows[0]).toEqual(expect.arrayContaining(['内容', '取得原価（USD）']));
    expect(books.de.language).toBe('de');
    expect(books.ja.language).toBe('ja');
  });

  it('keeps amounts, percents and dates as numbers and dates, with the same values as the English book', () => {
    const en = books.en.sheets[1]!;
    const de = books.de.sheets[1]!;
    expect(de.rows.slice(1).map((r) => r.filter((v) => typeof v === 'number'))).toEqual(en.rows.slice(1).map((r) => r.filter((v) => typeof v === 'number')));
    expect(de.formats).toEqual(en.formats);
  });

  it('states dates in text as Intl does for the locale (the title, the running header)', () => {
    const asOf = makeReportData({ holdings: 1 }).cover.as_of;
    const [y, m, d] = asOf.split('-').map(Number) as [number, number, number];
    const intl = (locale: string) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC', calendar: 'gregory' }).format(Date.UTC(y, m - 1, d));
    expect(books.de.title).toContain(intl('de'));
    expect(books.ja.title).toContain(intl('ja'));
  });

  it('quotes every sheet named in a chart range or a print title, and each names a sheet of the book', async () => {
    for (const lang of ['de', 'ja', 'en-XA'] as const) {
      const names = new Set(books[lang].sheets.map((s) => s.name));
      const zip = zips[lang]!;
      const refs: string[] = [];
      for (const f of Object.keys(zip.files).filter((n) => /^xl\/(charts\/chart\d+|workbook)\.xml$/.test(n))) {
        const xml = (await zip.file(f)!.async('string')).replace(/&apos;/g, "'").replace(/&amp;/g, '&');
        refs.push(...[...xml.matchAll(/<(?:c:f|definedName[^>]*)>([^<]*)<\//g)].map((m) => m[1]!));
      }
      expect(refs.length).toBeGreaterThan(3);
      for (const r of refs) {
        const m = /^'((?:[^']|'')+)'!/.exec(r);
        expect(m, r).not.toBeNull();
        expect(names.has(m![1]!.replace(/''/g, "'")), r).toBe(true);
      }
      // No cell formulas to recompute: the workbook's only cross-sheet references are the ones above.
      for (const f of Object.keys(zip.files).filter((n) => n.startsWith('xl/worksheets/sheet'))) expect(await zip.file(f)!.async('string')).not.toMatch(/<f[ >]/);
    }
  });
});

describe('CSV headers', () => {
  it('in the language on request, the values unchanged (dot decimals, codes)', () => {
    expect(csvDe[0]).toEqual(expect.arrayContaining(['Beschreibung', 'Marktvalidiert', 'Währung']));
    expect(csvDe[0]).not.toContain('asset_id');
    const seg = csvDe[0]!.indexOf('Segment');
    expect(csvDe[1]![seg]).toMatch(/^[a-z_]+$/); // the code, not a translated name
    expect(csvDe.slice(1).flat().some((v) => /^\d+\.\d+$/.test(v))).toBe(true);
    expect(gainsDe[0]).toEqual(expect.arrayContaining(['Erlös', 'Verkauft']));
  });
});

describe('excelSheetName', () => {
  it('shortens to 31 characters, replaces what Excel forbids, and keeps names unique', () => {
    expect(excelSheetName('a'.repeat(40), [])).toHaveLength(31);
    expect(excelSheetName('Q1/Q2: [draft]?', [])).not.toMatch(/[[\]:*?/\\]/);
    expect(excelSheetName('Notes', ['notes'])).toBe('Notes (2)');
    expect(excelSheetName('b'.repeat(40), ['b'.repeat(31)])).toBe(`${'b'.repeat(27)} (2)`);
  });
});
