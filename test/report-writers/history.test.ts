/**
 * The portfolio's history (issue 23) in every format, read back with readers that are not the
 * writers': ajv against the generated schema for the JSON, pdftotext and qpdf for the PDF,
 * openpyxl (Debian's python3) and the chart parts for the xlsx, csv-parse for the CSV. And a
 * report without a history writes none of it and still validates.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import JSZip from 'jszip';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { PERIOD_KEYS, REPORT_SCHEMA_VERSION, type ReportData, type ReportHistory } from '../../reports/report-data';
import { writeReport } from '../../reports/writers';
import { TIME_WEIGHTED_METHOD } from '../../src/performance';
import { makeReportData } from '../../fixtures/report-data';
import { readStructure } from './pdf-structure';
import { folded, libreOfficeConvert, pdfText, tempDir } from './tools';

const run = promisify(execFile);
/** Debian's python3 with python3-openpyxl (a pyenv python3 earlier on PATH may lack it). */
const PYTHON = '/usr/bin/python3';
const HISTORY_KEYS = ['performance', 'realised_gain', 'unrealised_gain', 'value_history', 'transactions', 'history_source'];

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(path.resolve('reports/schema/portfolio-report.schema.json'), 'utf8')));

const data = makeReportData({ holdings: 20, history: true, previous: true });
const history = data.history!;
const cents = (n: number) => Math.round(n * 100) / 100;

/** Independent of the writers' formatting: "$26,523,351" / "-$34,280.00", "+6.2 %". */
const usd = (n: number, decimals: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n);
const pct = (n: number) => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(1)} %`;

/** Every chart part of a workbook, as XML text. */
function chartParts(zip: JSZip): Promise<string[]> {
  return Promise.all(Object.keys(zip.files).filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n)).map((n) => zip.file(n)!.async('string')));
}

interface Written {
  dir: string;
  files: string[];
  byExt: (ext: string) => string;
}

async function writeAll(d: ReportData): Promise<Written> {
  const dir = tempDir('history');
  const files = (await writeReport(d, dir, ['json', 'csv', 'xlsx', 'pdf'])).map((f) => f.path);
  return { dir, files, byExt: (ext) => files.find((f) => f.endsWith(`-2026-10-31.${ext}`))! };
}

/** What openpyxl reads of the workbook: sheet names, and each history sheet's cells with their number formats. */
async function openpyxl(file: string): Promise<{ sheets: string[]; cells: Record<string, [unknown, string][][]> }> {
  const script = [
    'import json, sys, openpyxl',
    'wb = openpyxl.load_workbook(sys.argv[1])',
    'cells = {}',
    'for name in ("Value history", "Transactions", "Realised gains"):',
    '    if name in wb.sheetnames:',
    '        ws = wb[name]',
    '        cells[name] = [[[c.value, c.number_format] for c in row] for row in ws.iter_rows()]',
    'print(json.dumps({"sheets": wb.sheetnames, "cells": cells}, default=str))',
  ].join('\n');
  const { stdout } = await run(PYTHON, ['-c', script, file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout);
}

describe('a report with a history', () => {
  let w: Written;
  let doc: Record<string, any>;
  let text: string;
  beforeAll(async () => {
    w = await writeAll(data);
    doc = JSON.parse(readFileSync(w.byExt('json'), 'utf8'));
    text = folded(await pdfText(w.byExt('pdf')));
  }, 120_000);

  describe('JSON', () => {
    it('validates against the generated schema with every history key present', () => {
      const ok = validateReport(doc);
      expect(validateReport.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
      for (const k of HISTORY_KEYS) expect(doc, k).toHaveProperty(k);
      expect(doc.schema_version).toBe(REPORT_SCHEMA_VERSION);
    });

    it('writes each period as figures rounded to the cent and percentages as numbers, null where the history does not cover it', () => {
      for (const k of PERIOD_KEYS) {
        const p = history.performance.periods[k];
        if (p === null) {
          expect(doc.performance.periods[k]).toBeNull();
          continue;
        }
        expect(doc.performance.periods[k]).toEqual({ ...p, start_value: cents(p.start_value), end_value: cents(p.end_value), net_flows: cents(p.net_flows) });
      }
      expect(doc.performance.periods['3y']).toBeNull();
      expect(doc.performance.unavailable['3y']).toMatch(/^not enough history/);
      expect(doc.performance.periods.since_inception).toMatchObject({ annualised: true, mwr_percent: null, note: expect.stringMatching(/could not be computed/) });
      expect(typeof doc.performance.periods.ytd.twr_percent).toBe('number');
      expect(doc.performance.month_ends).toBe(25);
    });

    it('writes the gains, the value at each month-end and this period\'s transactions with their codes', () => {
      expect(doc.realised_gain.total).toBe(cents(history.realised_gain.total));
      expect(doc.realised_gain.lines.map((l: { gain: number }) => l.gain)).toEqual(history.realised_gain.lines.map((l) => cents(l.gain)));
      // Issue 34: the lot each sale took from and what its quantity counts.
      expect(doc.realised_gain.lines.map((l: { lot: string | null; unit: string | null }) => [l.lot, l.unit])).toEqual([
        [null, null],
        ['Nets, "Tokyo" 1992', null],
        [null, 'bottle'],
      ]);
      expect(doc.unrealised_gain).toBe(cents(history.unrealised_gain));
      expect(doc.value_history).toHaveLength(25);
      expect(doc.value_history.at(-1)).toEqual({ as_of: '2026-10-31', value: cents(history.value_history.at(-1)!.value), net_flows: cents(history.value_history.at(-1)!.net_flows) });
      expect(doc.transactions.map((t: { type: string }) => t.type)).toEqual(['buy', 'sell', 'income', 'transfer_in', 'fee']);
      expect(doc.history_source).toBe(history.source);
    });

    it('the JSON embedded in the client PDF carries the history too', async () => {
      const name = path.basename(w.byExt('json'));
      const embedded = JSON.parse((await run('qpdf', [`--show-attachment=${name}`, w.byExt('pdf')], { maxBuffer: 64 * 1024 * 1024 })).stdout);
      expect(validateReport(embedded)).toBe(true);
      for (const k of HISTORY_KEYS) expect(embedded, k).toHaveProperty(k);
      expect(embedded.realised_gain.total).toBe(doc.realised_gain.total);
    });
  });

  describe('PDF', () => {
    it("puts Portfolio performance before the market's measure, which says it is the service's, of today's holdings", () => {
      const own = text.indexOf('Portfolio performance');
      const market = text.indexOf("Market measure (the valuation service's)");
      expect(own).toBeGreaterThan(0);
      expect(market).toBeGreaterThan(own);
      expect(text).toContain("The valuation service's market measure of the holdings held today");
      expect(text.indexOf('Holdings', market)).toBeGreaterThan(market);
      for (const heading of ['VALUE OVER TIME', 'RETURNS OVER EACH PERIOD', 'REALISED GAINS', 'TRANSACTIONS THIS PERIOD']) {
        expect(text.indexOf(heading), heading).toBeGreaterThan(own);
        expect(text.indexOf(heading), heading).toBeLessThan(market);
      }
    });

    it('prints each period\'s row with its figures, "a year" on the annualised one, and "Not enough history" for a null one', () => {
      const p = history.performance.periods;
      const ytd = p.ytd!;
      expect(text).toContain(`Year to date 31 Dec 2025 ${pct(ytd.twr_percent!)} ${pct(ytd.mwr_percent!)} ${usd(ytd.start_value, 0)} ${usd(ytd.end_value, 0)} ${usd(ytd.net_flows, 0)}`);
      const y1 = p['1y']!;
      expect(text).toContain(`1 year 31 Oct 2025 ${pct(y1.twr_percent!)} ${pct(y1.mwr_percent!)} ${usd(y1.start_value, 0)}`);
      expect(text).toMatch(/3 years Not enough history \(1\)/);
      expect(text).toContain(`(1) Not enough history: the first month-end recorded is 31 October 2024.`);
      const si = p.since_inception!;
      expect(text).toContain(`Since inception 15 Oct 2024 ${pct(si.twr_percent!)} a year — (2) $0 ${usd(si.end_value, 0)}`);
      expect(text).toContain('(2) The money-weighted return could not be computed for this period');
      for (const label of ['Month to date', 'Quarter to date']) expect(text).toContain(label);
    });

    it('states the time-weighted method: months split at purchases or sales over 10 % of the book value, the market in the last part', () => {
      expect(TIME_WEIGHTED_METHOD).toMatch(/more than 10 % of the portfolio's book value/);
      expect(TIME_WEIGHTED_METHOD).toMatch(/market's movement within a month falls in its last part/);
      expect(text).toContain(folded(TIME_WEIGHTED_METHOD));
    });

    it('prints the realised gains with their total, the unrealised gain, and the transactions with their types in words', async () => {
      const rolex = history.realised_gain.lines[0]!;
      expect(text).toContain(`${usd(rolex.cost, 2)} ${usd(rolex.proceeds, 2)} ${usd(rolex.gain, 2)}`);
      // Laid out as printed: the total and its amount on one line.
      const lines = (await pdfText(w.byExt('pdf'), true)).split('\n');
      expect(lines.some((l) => /^\s*Total realised gains\s+/.test(l) && l.trimEnd().endsWith(usd(history.realised_gain.total, 2)))).toBe(true);
      expect(text).toContain(`Unrealised gain on what is held today: ${usd(history.unrealised_gain, 2)}`);
      const words = ['Purchase', 'Sale', 'Income', 'Transfer in', 'Fee'];
      history.transactions.forEach((t, i) => {
        const row = lines.find((l) => l.trimStart().startsWith(`${Number(t.date.slice(8))} October 2026 `) && l.includes(words[i]!));
        expect(row, `${t.date} ${words[i]}`).toBeDefined();
        expect(row).toContain(usd(t.amount, 2));
      });
      expect(text).toContain('EUR 19,000');
      const section = text.slice(text.indexOf('Portfolio performance'), text.indexOf("Market measure (the valuation service's)"));
      // Client words: no field names or codes ("transfer_in", "twr_percent").
      expect(section.match(/\b[a-z]+_[a-z_]+\b/g) ?? []).toEqual([]);
    });

    it('draws the value-over-time chart as a tagged Figure whose alternative text says what it shows', async () => {
      const s = await readStructure(w.byExt('pdf'));
      const alts = s.elements.filter((e) => e.type === 'Figure').map((e) => e.alt ?? '');
      const line = alts.find((a) => a.startsWith('Portfolio value and cumulative net flows at each month-end, line chart: '));
      expect(line, alts.join('\n')).toBeDefined();
      expect(line).toContain('25 month-ends from 31 October 2024 to 31 October 2026');
      expect(line).toContain(`Value at month-end from ${usd(history.value_history[0]!.value, 0)} to ${usd(history.value_history.at(-1)!.value, 0)}`);
      expect(line).toContain('Money put in, net (cumulative) from');
      expect(s.untaggedText + s.untaggedPaint).toBe(0);
      // The chart is vector: axis amounts in the report currency and dates are text in the page.
      expect(text).toMatch(/\$\d+(\.\d)?M .*Oct 2024 .*Oct 2026/);
    });
  });

  describe('xlsx', () => {
    let book: Awaited<ReturnType<typeof openpyxl>>;
    let zip: JSZip;
    beforeAll(async () => {
      book = await openpyxl(w.byExt('xlsx'));
      zip = await JSZip.loadAsync(readFileSync(w.byExt('xlsx')));
    }, 60_000);

    it('has History, Transactions and Realised gains sheets before the market measure', () => {
      expect(book.sheets).toEqual(['Summary', 'Holdings', 'Allocation', 'Value history', 'Transactions', 'Realised gains', 'Performance', 'Projections', 'Exit analysis', 'Errors']);
    });

    it('History holds each month-end with its value, net flows and cumulative net flows as money, then the periods with percentages', () => {
      const rows = book.cells['Value history']!;
      expect(rows[0]!.slice(0, 4).map((c) => c[0])).toEqual(['Month-end', 'Value', 'Net flows', 'Cumulative net flows']);
      let cumulative = 0;
      history.value_history.forEach((p, i) => {
        const [date, value, flows, cum] = rows[i + 1]!;
        cumulative += p.net_flows;
        expect(String(date![0]).slice(0, 10)).toBe(p.as_of);
        expect(value![0]).toBe(p.value);
        expect(flows![0]).toBe(p.net_flows);
        expect(cum![0]).toBeCloseTo(cumulative, 6);
        expect(value![1]).toContain('"$"#,##0.00');
      });
      const ytdRow = rows.find((r) => r[0]![0] === 'Year to date')!;
      const ytd = history.performance.periods.ytd!;
      expect(ytdRow[4]).toEqual([ytd.twr_percent! / 100, '0.00%']);
      expect(ytdRow[5]).toEqual([ytd.mwr_percent! / 100, '0.00%']);
      expect(ytdRow[6]![0]).toBe(ytd.start_value);
      const threeYears = rows.find((r) => r[0]![0] === '3 years')!;
      expect(threeYears[1]![0]).toBe('Not enough history');
      const since = rows.find((r) => r[0]![0] === 'Since inception')!;
      expect(since[3]![0]).toBe('a year (annualised)');
      expect(since[5]![0]).toBe('not available');
      expect(rows.find((r) => r[0]![0] === 'Realised gains (every sale)')![1]![0]).toBe(history.realised_gain.total);
    });

    it('states the time-weighted method beneath the periods', () => {
      expect(book.cells['Value history']!.flat().some((c) => typeof c?.[0] === 'string' && c[0].includes(TIME_WEIGHTED_METHOD))).toBe(true);
    });

    it('Transactions and Realised gains list this period\'s events in words and every sale with the total', () => {
      const tx = book.cells.Transactions!;
      expect(tx.slice(1).map((r) => r[1]![0])).toEqual(['Purchase', 'Sale', 'Income', 'Transfer in', 'Fee']);
      expect(tx[4]![5]).toEqual([history.transactions[3]!.amount, '"$"#,##0.00;[Red]-"$"#,##0.00']);
      const gains = book.cells['Realised gains']!;
      expect(gains.slice(1, 4).map((r) => r[7]![0])).toEqual(history.realised_gain.lines.map((l) => l.gain));
      // Issue 34: each sale's lot and the unit its quantity counts.
      expect(gains[0]!.slice(9, 11).map((c) => c[0])).toEqual(['Lot', 'Unit']);
      expect(gains.slice(1, 4).map((r) => [r[9]![0], r[10]![0]])).toEqual([
        [null, null],
        ['Nets, "Tokyo" 1992', null],
        [null, 'bottle'],
      ]);
      expect(gains.at(-1)![0]![0]).toBe('Total');
      expect(gains.at(-1)![7]![0]).toBe(history.realised_gain.total);
    });

    it('has a native line chart of the value and cumulative net flows referencing the History sheet', async () => {
      const charts = await chartParts(zip);
      const line = charts.find((c) => c.includes('<c:lineChart>'));
      expect(line).toBeDefined();
      expect(line!.match(/<c:ser>/g)).toHaveLength(2);
      expect(line).toContain('<c:f>&apos;Value history&apos;!$B$2:$B$26</c:f>');
      expect(line).toContain('<c:f>&apos;Value history&apos;!$D$2:$D$26</c:f>');
      expect(line).toContain('<c:f>&apos;Value history&apos;!$A$2:$A$26</c:f>');
      expect(line).toContain('<c:v>Value</c:v>');
      expect(line).toContain('<c:v>Cumulative net flows</c:v>');
      // The chart sits on the History sheet (sheet 4), and its frame has alternative text.
      const rels = await zip.file('xl/worksheets/_rels/sheet4.xml.rels')!.async('string');
      expect(rels).toMatch(/drawings\/drawing\d+\.xml/);
      const drawing = await zip.file(`xl/drawings/${/drawings\/(drawing\d+\.xml)/.exec(rels)![1]}`)!.async('string');
      expect(drawing).toMatch(/descr="Line chart, Value and cumulative net flows at each month-end: 25 month-ends; Value from /);
    });
    it('opens in LibreOffice with the line chart drawn', async () => {
      const { path: pdf } = await libreOfficeConvert(w.byExt('xlsx'), 'pdf', tempDir('history-lo'));
      // LibreOffice draws a chart's title only when it parsed the chart part.
      expect(folded(await pdfText(pdf))).toContain('Value and cumulative net flows at each month-end');
    }, 120_000);
  });

  describe('CSV', () => {
    it('keeps the holdings CSV as it was and writes the realised gains as a second CSV, listed with the files written', () => {
      const gainsFile = w.files.find((f) => f.endsWith('-2026-10-31-realised-gains.csv'));
      expect(gainsFile).toBeDefined();
      expect(w.files.filter((f) => f.endsWith('.csv'))).toHaveLength(2);
      const holdings = parse(readFileSync(w.byExt('csv')), { bom: true }) as string[][];
      // One table of one record per holding, as documented: no rows of another shape mixed in.
      expect(holdings[0]![0]).toBe('row');
      expect(holdings[0]!.slice(-2)).toEqual(['currency', 'sandbox']);
      expect(holdings).toHaveLength(21);
      const records = parse(readFileSync(gainsFile!), { bom: true, columns: true }) as Record<string, string>[];
      expect(Object.keys(records[0]!)).toEqual(['asset_id', 'description', 'opened', 'sold', 'quantity', 'cost', 'proceeds', 'gain', 'source', 'currency', 'sandbox', 'unit', 'lot']);
      expect(records.map((r) => [r.asset_id, r.sold, Number(r.quantity), Number(r.cost), Number(r.proceeds), Number(r.gain), r.currency])).toEqual(
        history.realised_gain.lines.map((l) => [l.asset_id, l.sold, l.quantity, cents(l.cost), cents(l.proceeds), cents(l.gain), 'USD']),
      );
      expect(cents(records.reduce((s, r) => s + Number(r.gain), 0))).toBe(cents(history.realised_gain.total));
      // Issue 34: the lot each sale took from (a name with a comma and quotes, read back whole) and what its quantity counts.
      expect(records.map((r) => [r.lot, r.unit])).toEqual([
        ['', ''],
        ['Nets, "Tokyo" 1992', ''],
        ['', 'bottle'],
      ]);
      expect(history.realised_gain.lines.map((l) => [l.lot ?? '', l.unit ?? ''])).toEqual(records.map((r) => [r.lot, r.unit]));
    });

    it('opens the realised gains in LibreOffice with its default import: the lot and unit in their own columns', async () => {
      const gainsFile = w.files.find((f) => f.endsWith('-2026-10-31-realised-gains.csv'))!;
      const { path: converted } = await libreOfficeConvert(gainsFile, 'xlsx', tempDir('history-gains-lo'));
      const script = ['import json, sys, openpyxl', 'ws = openpyxl.load_workbook(sys.argv[1]).active', 'print(json.dumps([[c.value for c in r] for r in ws.iter_rows()], default=str))'].join('\n');
      const rows = JSON.parse((await run(PYTHON, ['-c', script, converted])).stdout) as (string | number | null)[][];
      const header = rows[0]!;
      expect(header.slice(-2)).toEqual(['unit', 'lot']);
      const at = (name: string) => rows.slice(1).map((r) => r[header.indexOf(name)] ?? null);
      expect(at('lot')).toEqual([null, 'Nets, "Tokyo" 1992', null]);
      expect(at('unit')).toEqual([null, null, 'bottle']);
      expect(at('quantity')).toEqual([1, 1, 6]);
    }, 120_000);
  });
});

describe('a report without a history', () => {
  let w: Written;
  beforeAll(async () => {
    w = await writeAll(makeReportData({ holdings: 20, previous: true }));
  }, 120_000);

  it('writes none of the history keys and still validates', () => {
    const doc = JSON.parse(readFileSync(w.byExt('json'), 'utf8'));
    expect(validateReport(doc)).toBe(true);
    for (const k of HISTORY_KEYS) expect(doc).not.toHaveProperty(k);
  });

  it('prints no Portfolio performance section in the PDF, and the market measure still says whose it is', async () => {
    const text = folded(await pdfText(w.byExt('pdf')));
    for (const t of ['Portfolio performance', 'VALUE OVER TIME', 'REALISED GAINS', 'TRANSACTIONS THIS PERIOD']) expect(text).not.toContain(t);
    expect(text).toContain("Market measure (the valuation service's)");
    const s = await readStructure(w.byExt('pdf'));
    expect(s.elements.filter((e) => e.type === 'Figure' && (e.alt ?? '').includes('line chart'))).toEqual([]);
  });

  it('has no history sheets, no line chart, and one CSV', async () => {
    const book = await openpyxl(w.byExt('xlsx'));
    expect(book.sheets).toEqual(['Summary', 'Holdings', 'Allocation', 'Performance', 'Projections', 'Exit analysis', 'Errors']);
    const zip = await JSZip.loadAsync(readFileSync(w.byExt('xlsx')));
    const charts = await chartParts(zip);
    expect(charts.some((c) => c.includes('<c:lineChart>'))).toBe(false);
    expect(w.files.filter((f) => f.endsWith('.csv'))).toEqual([w.byExt('csv')]);
  });
});

describe('a history of one month-end', () => {
  it('says so in a sentence instead of drawing the chart, and the xlsx has no line chart', async () => {
    const base = makeReportData({ holdings: 5, history: true });
    const h: ReportHistory = { ...base.history!, value_history: base.history!.value_history.slice(-1) };
    const w = await writeAll({ ...base, history: h });
    const text = folded(await pdfText(w.byExt('pdf')));
    expect(text).toContain('One month-end is recorded so far (31 October 2026): the chart of the value over time starts with the second.');
    const s = await readStructure(w.byExt('pdf'));
    expect(s.elements.filter((e) => e.type === 'Figure' && (e.alt ?? '').includes('line chart'))).toEqual([]);
    const zip = await JSZip.loadAsync(readFileSync(w.byExt('xlsx')));
    const charts = await chartParts(zip);
    expect(charts.some((c) => c.includes('<c:lineChart>'))).toBe(false);
  }, 120_000);
});
