/**
 * Issue 36, the `notes` and `dashboard` areas, through the real command: one run whose three
 * portfolios are written in en-XA, de and ja (their `language` column), and the market dashboard
 * in en-XA and de (--language). The JSON is read back with JSON.parse, the dashboard's PDF with
 * pdftotext. In en-XA every sentence the build composes (method text, disclaimer, validation and
 * concentration sentences, section labels, segment names, units) and every word of the dashboard
 * PDF is accented: no plain English is left but proper names, codes and file names. In de and ja
 * the glossary's terms, and dates and percents equal to Intl's output for the language.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, pdfText, readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

const AS_OF = '2026-10-31';
/** A run's portfolios, one per language, with the rows that make every sentence of the notes area appear. */
const PORTFOLIOS = { 'en-XA': 'Pseudo Trust', de: 'Ashford Stiftung', ja: 'Kobayashi Family' } as const;
/** Three properties (the value not market validated: the warning and the concentration flags), wine by the case, a watch, art. */
const ROWS = [
  'real_estate,One Hyde Park,Apartment C.6.1 London SW1X,,,,,,1,9788000,2020-01-18,USD,',
  'real_estate,Aman Residences Tokyo,Residence 3805,,,,,,1,5477000,2016-08-20,USD,',
  'real_estate,Chelsea Barracks,Garrison Square Townhouse 4,,,,,,1,10889000,2019-08-16,USD,',
  'wine,Château Margaux,Margaux,,2014,fair,,,2,13600,2020-08-11,USD,',
  'wine,Pétrus,Pomerol,,2010,good,,,1,25250,2014-03-24,USD,',
  'watches,Rolex,Cosmograph Daytona,116500LN,2019,good,yes,,1,30700,2025-06-21,USD,',
  'art,Banksy,Girl with Balloon,,2004,excellent,,,1,243000,2023-04-02,USD,',
];

let sb: TestSandbox;
let dir: string;
let reports: Record<keyof typeof PORTFOLIOS, Report>;
let dashboard: { pseudo: string; pseudoJson: Dashboard; de: string; deJson: Dashboard; deXlsx: string };

interface Report {
  method_notes: string[];
  disclaimer: string;
  language: string;
  summary: { validation_warning: string | null; market_validated_percent: number; returns_source: string };
  concentration: { flags: { message: string }[] };
  allocation: { segment: string; segment_name: string }[];
  holdings: { description: string; quantity_unit: string }[];
  benchmarks: { included: boolean; note?: string; data?: { periods: { period: string; label: string }[]; benchmarks: { name: string }[]; benchmark_name: string } };
  projections: { note?: string };
  exit_analysis: { note?: string };
}
interface Dashboard {
  language: string;
  as_of: string;
  notes: string[];
  disclaimer: string;
  segments: { segment: string; segment_name: string }[];
  top_movers: { brand: string; model: string; change_30d_percent: number }[];
  alerts: { title: string; message: string }[];
  report_id: string;
}

const slug = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-notes-dashboard-');
  // The examples' columns, written out: the rows below give each of them a value.
  const header = 'Portfolio,Segment,Brand,Model,Reference,Year,Condition,Box & Papers,Size,Quantity,Purchase Price,Purchase Date,Currency,Notes';
  const holdings = join(dir, 'clients.csv');
  writeFileSync(holdings, [`${header},Language`, ...Object.entries(PORTFOLIOS).flatMap(([lang, name]) => ROWS.map((r) => `${name},${r},${lang}`))].join('\n') + '\n');
  const out = join(dir, 'run');
  // One run for every portfolio, one dashboard per language: in parallel, the formats each test reads.
  const [run, pseudo, de] = await Promise.all([
    runCli(['run', holdings, '--out', out, '--as-of', AS_OF, '--currency', 'CHF', '--fx-rates', join(ROOT, 'examples/fx-rates-ILLUSTRATIVE.csv'), '--formats', 'json', '--db', 'off'], serviceEnv(sb)),
    runCli(['dashboard', '--out', join(dir, 'dash-xa'), '--as-of', AS_OF, '--language', 'en-XA', '--formats', 'pdf,json'], serviceEnv(sb)),
    runCli(['dashboard', '--out', join(dir, 'dash-de'), '--as-of', AS_OF, '--language', 'de', '--formats', 'pdf,json,xlsx'], serviceEnv(sb)),
  ]);
  for (const r of [run, pseudo, de]) expect(r.code, r.stderr).toBe(0);
  reports = Object.fromEntries(Object.entries(PORTFOLIOS).map(([lang, name]) => [lang, readJson(join(out, `${slug(name)}-${AS_OF}.json`))])) as typeof reports;
  const dash = (folder: string) => join(dir, folder, `market-dashboard-${AS_OF}`);
  // Content order (-raw): a wrapped cell (an alert's message) reads as one run of text.
  dashboard = { pseudo: execFileSync('pdftotext', ['-raw', `${dash('dash-xa')}.pdf`, '-'], { encoding: 'utf8' }), pseudoJson: readJson(`${dash('dash-xa')}.json`), de: pdfText(`${dash('dash-de')}.pdf`), deJson: readJson(`${dash('dash-de')}.json`), deXlsx: `${dash('dash-de')}.xlsx` };
}, 240_000);
afterAll(async () => {
  await sb?.close();
});

/** What is left of a text once the words nobody translates are taken out: plain (unaccented) Latin words. */
function plainWords(text: string, proper: readonly string[]): string[] {
  let rest = text;
  // Longest first, so a name inside another is not cut out of it first.
  for (const p of [...proper].sort((a, b) => b.length - a.length)) rest = rest.split(p).join(' ');
  rest = rest
    .replace(/\b[\w.-]+\.csv\b/g, ' ') // a file the reader can look up (the rates file)
    .replace(/--previous\b/g, ' ') // an option's name
    .replace(/\b[A-Z]{3}\b/g, ' ') // ISO currency codes
    .replace(/\bcl\b/g, ' '); // centilitres
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

const intlDate = (lang: string, iso: string) => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC', calendar: 'gregory' }).format(new Date(`${iso}T00:00:00Z`));
const intlPercent = (lang: string, value: number, signed = false) =>
  new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: signed ? 'exceptZero' : 'negative' }).format(value / 100);
/** pdftotext writes Intl's no-break spaces as it likes: compare with every space as one. */
const spaced = (s: string) => s.replace(/\s+/g, ' ');

describe('the notes area: every sentence the build composes is in the portfolio language', () => {
  it('en-XA: the method text, disclaimer, warning, flags, labels, segment names and units are all accented', () => {
    const r = reports['en-XA'];
    expect(r.language).toBe('en-XA');
    const proper = r.holdings.map((h) => h.description.replace(/ × .*$/, '').replace(/ \(\d{4}\)$/, ''));
    const texts = [
      ...r.method_notes,
      r.disclaimer,
      r.summary.validation_warning!,
      ...r.concentration.flags.map((f) => f.message),
      ...r.allocation.map((a) => a.segment_name),
      ...r.holdings.map((h) => h.quantity_unit),
      ...r.holdings.map((h) => h.description),
      ...(r.benchmarks.data ? [...r.benchmarks.data.periods.map((p) => p.label), ...r.benchmarks.data.benchmarks.map((b) => b.name), r.benchmarks.data.benchmark_name] : [r.benchmarks.note!]),
    ];
    // Each of these is there, so the check below has something to find.
    expect(r.summary.validation_warning).not.toBeNull();
    expect(r.concentration.flags.length).toBeGreaterThan(0);
    expect(r.method_notes.length).toBeGreaterThanOrEqual(5);
    expect(texts.filter((t) => plainWords(t, proper).length > 0)).toEqual([]);
    // The pseudo-locale's marks are there: the messages came from the catalogue.
    expect(r.method_notes.every((n) => n.startsWith('[·'))).toBe(true);
    // The machine field stays stable English: programs read it.
    expect(r.summary.returns_source).toMatch(/^this report alone \(/);
  });

  it('de: the glossary terms, German period names, and dates and percents as Intl writes them in German', () => {
    const r = reports.de;
    const method = r.method_notes.join('\n');
    expect(method).toContain('„Zeitgewichtete Rendite“');
    expect(method).toContain('„Geldgewichtete Rendite“');
    expect(method).toContain(`per ${intlDate('de', AS_OF)} über die Sammelbewertung`);
    expect(method).toContain('ausschließlich diesem Bericht (kein früheres Monatsende erfasst)');
    expect(r.benchmarks.data?.periods.map((p) => p.label)).toEqual(['1 Monat', '3 Monate', '6 Monate', '1 Jahr', 'Seit Jahresbeginn']);
    expect(r.allocation.find((a) => a.segment === 'real_estate')?.segment_name).toBe('Prestige-Immobilien');
    expect(r.holdings.find((h) => h.description.startsWith('Château Margaux'))?.description).toBe('Château Margaux Margaux (2014) × 2 Kisten zu 12 × 75 cl');
    expect(r.summary.validation_warning).toContain(`Nur ${intlPercent('de', r.summary.market_validated_percent)} des Wertes in diesem Bericht sind marktvalidiert.`);
    expect(r.disclaimer).toMatch(/^Die Werte in diesem Bericht sind Modellschätzungen/);
  });

  it('ja: the glossary terms, Japanese dates without era, no space between sentences', () => {
    const r = reports.ja;
    const method = r.method_notes.join('\n');
    expect(method).toContain('「時間加重収益率」');
    expect(method).toContain(`${intlDate('ja', AS_OF)}時点で`);
    expect(intlDate('ja', AS_OF)).toBe('2026年10月31日');
    expect(r.benchmarks.data?.periods.map((p) => p.label)).toEqual(['1か月', '3か月', '6か月', '1年', '年初来']);
    expect(r.summary.validation_warning).toContain(`市場検証済みは${intlPercent('ja', r.summary.market_validated_percent)}のみです。`);
    expect(r.disclaimer).not.toMatch(/。 /);
  });
});

describe('the dashboard: --language decides its words', () => {
  it('en-XA: every word of the PDF and the JSON notes is accented, but the service’s names and furniture another area owns', () => {
    const j = dashboard.pseudoJson;
    expect(j.language).toBe('en-XA');
    // The service's own words: brands and models, alert titles and messages.
    const proper = [...j.top_movers.flatMap((m) => [m.brand, m.model]), ...j.alerts.flatMap((a) => [a.title, a.message]), j.report_id];
    const text = spaced(dashboard.pseudo)
      // The page furniture (pdf-layout.ts, data-marks.ts) is the pdf area's, not the dashboard's.
      .replace(/Page \d+ of \d+/g, ' ')
      .replace(/SANDBOX DATA/g, ' ')
      // The pseudo-locale's dates are English's (src/i18n/formats.ts): Intl's, not a catalogue's words.
      .split(intlDate('en-GB', j.as_of))
      .join(' ');
    expect(plainWords(text, proper)).toEqual([]);
    expect(text).toContain('[·');
    expect([j.disclaimer, ...j.notes, ...j.segments.map((s) => s.segment_name)].filter((t) => plainWords(t, proper).length > 0)).toEqual([]);
  });

  it('de: German headings, the date and the movers’ percents as Intl writes them in German', () => {
    const t = spaced(dashboard.de);
    const j = dashboard.deJson;
    expect(j.language).toBe('de');
    // Subheadings are set in capitals: compared without case.
    for (const heading of ['Marktübersicht', 'Größte Preisbewegungen', 'Aktive Hinweise', 'Preisveränderung über 30 Tage nach Segment', 'Luxusuhren']) expect(t.toLowerCase()).toContain(heading.toLowerCase());
    expect(t).toContain(`Signale für die zehn Segmente per ${intlDate('de', j.as_of)}.`);
    expect(j.top_movers.length).toBeGreaterThan(0);
    for (const m of j.top_movers) expect(t).toContain(spaced(intlPercent('de', m.change_30d_percent, true)));
    expect(j.disclaimer).toMatch(/^Marktsignale sind Modellindikatoren/);
  });

  it('de: the workbook’s sheet names, headers and code words are German (read by openpyxl)', () => {
    const script = [
      'import json, sys, openpyxl',
      'wb = openpyxl.load_workbook(sys.argv[1])',
      'print(json.dumps({ws.title: [[c.value for c in r] for r in ws.iter_rows(max_row=2)] for ws in wb.worksheets}, default=str))',
    ].join('\n');
    const book: Record<string, unknown[][]> = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, dashboard.deXlsx], { encoding: 'utf8' }));
    expect(Object.keys(book)).toEqual(['Segmente', 'Größte Veränderungen', 'Warnmeldungen', 'Hinweise']);
    expect(book.Segmente![0]!.slice(0, 6)).toEqual(['Segment-ID', 'Segment', 'Dynamik', 'Volumen', 'Stimmung', 'Signalstärke']);
    // The first segment's row: its code kept in the id column, its name and its momentum in German.
    expect(book.Segmente![1]!.slice(0, 2)).toEqual(['watches', 'Luxusuhren']);
    expect(['Positiv', 'Neutral', 'Negativ']).toContain(book.Segmente![1]![2]);
    expect(book['Größte Veränderungen']![0]).toEqual(['Segment', 'Marke', 'Modell', 'Veränderung 30 Tage']);
    expect(book.Hinweise![0]![0]).toBe(`Marktübersicht — ${intlDate('de', AS_OF)}`);
  });
});
