/**
 * Issue 36, as it is measured: "for each language, the demo's portfolios written in it". The
 * demo's inputs (examples/: the files `svc-report demo` reads, its config) are run once per
 * language with `--language`, with one more portfolio named in the client's own script (a name
 * is never translated and must read back as written), the firm's words given per language (a
 * brand file), and the market dashboard once per language. Every client PDF and the consolidated
 * report's (pdftotext, qpdf), every workbook (openpyxl), the CSVs and the dashboard's PDF and
 * workbook are read back with the independent readers and must hold no English catalogue text
 * where the language says it otherwise, state the language (/Lang), and write the valuation date
 * and the values as Intl does for the locale. The pseudo-locale's documents hold no plain English
 * catalogue text at all. No history months (`--db off`): the demo's year is its own test's.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/i18n/catalogues';
import { LANGUAGES, PSEUDO_LANGUAGE, fallbackChain, translator, type Language } from '../../src/i18n';
import { DEMO_FILES } from '../../reports/demo/demo-command';
import { ROOT, readJson, runCli, serviceEnv, tempDir, testSandbox, type CliResult, type TestSandbox } from '../reports/helpers';

const run = promisify(execFile);
const AS_OF = '2026-10-31';
const PYTHON = '/usr/bin/python3';
const EXAMPLES = join(ROOT, 'examples');
/** Every language but `en`, the catalogues' own; `en-GB` is the English baseline the others' CSV headers differ from. */
const LANGS: Language[] = [...LANGUAGES.filter((l) => l !== 'en'), PSEUDO_LANGUAGE];
/** The demo's portfolio whose relationship manager has a German title in the brand's managers file. */
const MANAGED = 'Okafor Household';
/** Client names in the client's own script where it has one. */
const CLIENT: Partial<Record<Language, string>> = { ar: 'مجموعة الراشد', ja: '田中コレクション', 'zh-Hans': '王氏收藏' };
const clientOf = (lang: Language) => CLIENT[lang] ?? `Client ${lang}`;
/** The firm's words: a cover title and footer in English and German only, disclosures in English only. */
const BRAND = {
  firm_name: 'Ashgrove & Vale',
  cover_title: { en: 'Wealth report', de: 'Vermögensbericht' },
  footer: { en: 'Ashgrove & Vale LLP, London', de: 'Ashgrove & Vale LLP, London (Zweigniederlassung Zürich)' },
  disclosures: { en: 'Valuations are estimates.' },
  managers: 'managers.csv',
};

type AreaShape = { en: Record<string, string>; translations: Partial<Record<Language, Record<string, string>>> };

/** The message a language shows for `area.key`, along its fallback chain. */
function messageIn(lang: Language, a: AreaShape, key: string): string {
  for (const l of fallbackChain(lang)) {
    const text = l === 'en' ? a.en[key] : a.translations[l]?.[key];
    if (text !== undefined) return text;
  }
  return a.en[key]!;
}

/** Runs of literal text (placeholders and plural syntax removed) of two words or more: what would betray an untranslated message. */
function literalRuns(message: string): string[] {
  return message
    .split(/[{}#]/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.split(' ').length >= 2 && s.length >= 12 && !/^(plural|select|one|other|number|date)\b/.test(s));
}

/** The English catalogue text a document in `lang` must not hold: every message whose text in the language differs from English. */
function englishLeft(lang: Language, text: string): string[] {
  const found: string[] = [];
  for (const [name, a] of Object.entries(AREAS as unknown as Record<string, AreaShape>)) {
    for (const key of Object.keys(a.en)) {
      const english = a.en[key]!;
      if (lang !== PSEUDO_LANGUAGE && messageIn(lang, a, key) === english) continue;
      for (const phrase of literalRuns(english)) if (text.includes(phrase)) found.push(`${name}.${key}: "${phrase}"`);
    }
  }
  return found;
}

const flat = (s: string) => s.replace(/[\u00a0\u202f\u2009]/g, ' ').replace(/\s+/g, ' ');
const texts = new Map<string, Promise<string>>();
/** A PDF's text by pdftotext (with `args`), read once per file and arguments: several checks read each of the ninety-odd files. */
const pdfText = (file: string, ...args: string[]): Promise<string> => {
  const key = [file, ...args].join('\0');
  if (!texts.has(key)) texts.set(key, run('pdftotext', ['-enc', 'UTF-8', ...args, file, '-'], { maxBuffer: 64 * 1024 * 1024 }).then((r) => flat(r.stdout)));
  return texts.get(key)!;
};

/** The document catalogue's /Lang, read with qpdf (streams left out: the catalogue is all it needs). */
async function pdfLang(file: string): Promise<string | undefined> {
  const { stdout } = await run('qpdf', ['--json', '--json-stream-data=none', file], { maxBuffer: 256 * 1024 * 1024 });
  const objects = (JSON.parse(stdout) as { qpdf: [unknown, Record<string, { value?: Record<string, string> }>] }).qpdf[1];
  const root = objects.trailer!.value!['/Root']!;
  return objects[`obj:${root}`]!.value!['/Lang']?.replace(/^u:/, '');
}

/** Each workbook's sheet names and text cells, one line a row, read with openpyxl; rows holding `skip` (the analyst notes' label) left out. */
async function workbookTexts(files: string[], skip: string): Promise<Record<string, string>> {
  const script = [
    'import sys, json, openpyxl',
    'out = {}',
    'for f in sys.argv[2:]:',
    '  lines = []',
    '  for ws in openpyxl.load_workbook(f).worksheets:',
    '    lines.append(ws.title)',
    '    for row in ws.iter_rows(values_only=True):',
    '      if sys.argv[1] in row: continue',
    '      lines.append(" | ".join(str(v) for v in row if isinstance(v, str)))',
    '  out[f] = "\\n".join(lines)',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse((await run(PYTHON, ['-c', script, skip, ...files], { maxBuffer: 64 * 1024 * 1024 })).stdout);
}

interface Written {
  result: CliResult;
  dashboard: CliResult;
  /** The run's client documents and the consolidated report's, by format. */
  pdf: string[];
  xlsx: string[];
  csv: string[];
  json: string[];
  consolidated: { pdf: string; json: string };
  dashboardPdf: string;
  dashboardXlsx: string;
  /** The dashboard's alert titles and messages: the service's own words, English by decision (docs/i18n.md), left out of the checks. */
  serviceWords: string[];
}

/** `text` without the service's own words. */
const withoutService = (text: string, words: string[]) => words.reduce((t, w) => t.split(flat(w)).join(' '), text);

describe("every language: the demo's portfolios written in it", () => {
  let sb: TestSandbox;
  const written = new Map<Language, Written>();
  const of = (lang: Language) => written.get(lang)!;
  /** The document of the portfolio named `name` (the client's, by default) in `lang`'s run: its JSON sibling names it. */
  const docOf = (lang: Language, ext: 'pdf' | 'csv' | 'json', name = clientOf(lang)) => of(lang)[ext].find((f) => readJson(f.replace(/(-realised-gains)?\.\w+$/, '.json')).portfolio.name === name)!;

  beforeAll(async () => {
    sb = await testSandbox();
    const dir = tempDir('svc-every-language-');
    writeFileSync(join(dir, 'managers.csv'), ['portfolio,name,email,phone,title,title_de', `${MANAGED},Eleanor Whitcombe,,,Senior private banker,Kundenbetreuerin`].join('\n'));
    writeFileSync(join(dir, 'brand.json'), JSON.stringify(BRAND));
    const demo = [...DEMO_FILES.map((f) => join(EXAMPLES, f)), '--config', join(EXAMPLES, 'svc-report.config.json')];
    const one = async (lang: Language) => {
      const out = join(dir, lang);
      const client = join(dir, `client-${lang}.csv`);
      const notes = lang === 'ar' ? 'ساعة Rolex Submariner اشتريت في دبي' : '';
      writeFileSync(client, ['portfolio,segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency,notes', `${clientOf(lang)},watches,Rolex,Submariner Date,126610LN,2021,excellent,1,14500,2024-03-15,USD,${notes}`].join('\n'));
      const [result, dashboard] = await Promise.all([
        runCli(['run', client, ...demo, '--out', out, '--as-of', AS_OF, '--db', 'off', '--brand', join(dir, 'brand.json'), '--language', lang], serviceEnv(sb)),
        runCli(['dashboard', '--out', join(dir, `dashboard-${lang}`), '--as-of', AS_OF, '--language', lang, '--formats', 'pdf,xlsx,json'], serviceEnv(sb)),
      ]);
      const files = result.stdout.split('\n').filter((f) => f.startsWith(out) && !f.endsWith('manifest.json'));
      const ext = (e: string) => files.filter((f) => f.endsWith(`.${e}`));
      const consolidated = (e: string) => files.find((f) => basename(f).startsWith('consolidated') && f.endsWith(`.${e}`))!;
      const dash = (e: string) => join(dir, `dashboard-${lang}`, `market-dashboard-${AS_OF}.${e}`);
      const alerts = (readJson(dash('json')).alerts ?? []) as { title: string; message: string }[];
      const serviceWords = alerts.flatMap((a) => [a.title, a.message]);
      written.set(lang, { result, dashboard, pdf: ext('pdf'), xlsx: ext('xlsx'), csv: ext('csv'), json: ext('json'), consolidated: { pdf: consolidated('pdf'), json: consolidated('json') }, dashboardPdf: dash('pdf'), dashboardXlsx: dash('xlsx'), serviceWords });
    };
    // Two languages at a time: each run waits on the sandbox part of its time.
    const queue = [...LANGS];
    await Promise.all([0, 1].map(async () => {
      for (let lang = queue.shift(); lang; lang = queue.shift()) await one(lang);
    }));
  }, 1_800_000); // a hang detector, not a speed assertion: eleven runs of the demo's portfolios on a machine shared by several runs
  afterAll(async () => sb?.close());

  it("writes every portfolio of the demo's, the client's and the consolidated report, and the dashboard, in every language", () => {
    for (const lang of LANGS) {
      const w = of(lang);
      expect(w.result.code, `${lang}: ${w.result.stderr}`).toBe(0);
      expect(w.dashboard.code, `${lang}: ${w.dashboard.stderr}`).toBe(0);
      // The demo's six portfolios (three in one CSV, two sheets of a workbook, one JSON), the client's and the consolidated report.
      for (const e of ['pdf', 'xlsx', 'json'] as const) expect(w[e], `${lang} ${e}`).toHaveLength(8);
      for (const f of w.json) expect(readJson(f).language, f).toBe(lang);
    }
  });

  it.each(LANGS.filter((l) => l !== 'en-GB'))('%s: every PDF (the clients\' and the consolidated) holds no English catalogue text and states its language', async (lang) => {
    for (const file of of(lang).pdf) {
      expect(englishLeft(lang, await pdfText(file)), basename(file)).toEqual([]);
      expect(await pdfLang(file), basename(file)).toBe(lang);
    }
    expect(await pdfText(docOf(lang, 'pdf'))).toContain(clientOf(lang));
  });

  it.each(LANGS.filter((l) => l !== 'ar' && l !== PSEUDO_LANGUAGE))('%s: the valuation date, a purchase date and each portfolio\'s value are written as Intl writes them for the locale', async (lang) => {
    const tr = translator(lang);
    for (const file of of(lang).pdf) {
      const text = await pdfText(file);
      const report = readJson(file.replace(/\.pdf$/, '.json'));
      expect(text, basename(file)).toContain(flat(tr.date(AS_OF)));
      expect(text, basename(file)).toContain(flat(tr.money(report.summary.current_value, report.currency)));
    }
    // The holdings table's purchase dates, in the locale's short form (the client's Rolex, bought 2024-03-15).
    expect(await pdfText(docOf(lang, 'pdf'))).toContain(flat(tr.shortDate('2024-03-15')));
  });

  it.each(LANGS.filter((l) => l !== 'en-GB'))('%s: every workbook (openpyxl) holds no English catalogue text in its sheet names, headers and labels', async (lang) => {
    const w = of(lang);
    // The analyst notes (rows marked with the note label on the Errors sheet) are the firm's, in English by decision (reports/build/client-language.ts): left out.
    const texts = await workbookTexts([...w.xlsx, w.dashboardXlsx], translator(lang).t('xlsx.note_row'));
    for (const [file, text] of Object.entries(texts)) expect(englishLeft(lang, withoutService(flat(text), w.serviceWords)), basename(file)).toEqual([]);
  });

  it.each(LANGS.filter((l) => l !== 'en-GB'))("%s: the dashboard's PDF holds no English catalogue text and states its language", async (lang) => {
    const file = of(lang).dashboardPdf;
    // Content order (-raw): an alert's message wrapped in its cell reads as one run, and is left out whole.
    expect(englishLeft(lang, withoutService(await pdfText(file, '-raw'), of(lang).serviceWords))).toEqual([]);
    expect(await pdfLang(file)).toBe(lang);
  });

  it.each(LANGS.filter((l) => l !== 'en-GB'))('%s: every CSV header row is in the language', (lang) => {
    const header = (f: string) => readFileSync(f, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
    // The demo's portfolios' files are named alike in every run; the client's is compared with en-GB's client's.
    const english = new Map(of('en-GB').csv.map((f) => [basename(f), header(f)]));
    const client = header(docOf('en-GB', 'csv'));
    for (const f of of(lang).csv) expect(header(f), basename(f)).not.toBe(english.get(basename(f)) ?? client);
  });

  it("gives the firm's words in the client's language, else the firm's with a warning naming the portfolio; the consolidated report's in the run's language", async () => {
    const fr = of('fr').result.stderr;
    expect(fr).toContain(`Portfolio "${MANAGED}": the brand's cover_title has no text in fr; its en text (the firm's language) is used.`);
    expect(fr).toContain(`Portfolio "Consolidated": the brand's footer has no text in fr; its en text (the firm's language) is used.`);
    // de-CH reads de's texts: no fallback for the cover title; the disclosures, in English only, fall back.
    const deCh = of('de-CH').result.stderr;
    expect(deCh).not.toContain("the brand's cover_title");
    expect(deCh).toContain(`Portfolio "${MANAGED}": the brand's disclosures has no text in de-CH`);
    expect(readJson(docOf('ja', 'json')).analyst_notes.join('\n')).toContain("the brand's cover_title has no text in ja");
    const de = of('de');
    const cover = await pdfText(docOf('de', 'pdf', MANAGED), '-l', '1');
    expect(cover).toContain('Vermögensbericht');
    expect(cover).toMatch(/KUNDENBETREUERIN Eleanor Whitcombe/);
    // The consolidated (internal) report: the German footer on its pages, the fallback said in its notes.
    expect(await pdfText(de.consolidated.pdf)).toContain(BRAND.footer.de);
    expect(readJson(de.consolidated.json).analyst_notes.join('\n')).toContain(`Portfolio "Consolidated": the brand's disclosures has no text in de`);
  });
});
