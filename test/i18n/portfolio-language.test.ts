/**
 * A language per portfolio (issue 36): the `language` column of holdings and transactions files,
 * --language for the run, carried into the report data and the JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHoldings } from '../../src/holdings/load';
import { InputError } from '../../src/holdings/types';
import { loadBrand } from '../../src/brand';
import { readRunInputs } from '../../reports/run/run-inputs';
import { buildPortfolioReport } from '../../reports/build/portfolio-report';
import { buildConsolidatedReport } from '../../reports/build/consolidated';
import type { BuildContext } from '../../reports/build/context';
import type { PortfolioResults } from '../../reports/run/results';
import { reportDocumentHead } from '../../reports/writers/json-document';
import { REPORT_SCHEMA_VERSION } from '../../reports/report-data';
import { checkJobData } from '../../reports/queue/job-schema';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

const SUPPORTED = 'en, en-GB, de, de-CH, fr, fr-CH, it, es, zh-Hans, ja, ar';
const HEAD = 'portfolio,segment,brand,model,reference,year,purchase_price,purchase_date,currency';
const row = (portfolio: string, brand: string, extra = '') => `${portfolio},watches,${brand},Submariner Date,126610LN,2021,13200,2022-03-14,USD${extra}`;
const rules = { asOf: '2026-10-31' };

let dir: string;
const file = (name: string, lines: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(InputError);
  return (e as Error).message;
};

beforeAll(() => {
  dir = tempDir('svc-report-language-');
});

describe('the language column', () => {
  it('gives each portfolio its language, from any of its rows, in any case and under another header name', async () => {
    const path = file('clients.csv', [`${HEAD},Lang`, row('Ashford', 'Rolex', ',de-ch'), row('Ashford', 'Omega', ','), row('Brook', 'Tudor', ',ZH-HANS'), row('Carey', 'Cartier', ',')]);
    const { portfolios } = await loadHoldings([path], rules);
    expect(Object.fromEntries(portfolios.map((p) => [p.name, p.language]))).toEqual({ Ashford: 'de-CH', Brook: 'zh-Hans', Carey: undefined });
  });

  it('refuses two languages for one portfolio, naming both rows', async () => {
    const path = file('two.csv', [`${HEAD},language`, row('Ashford', 'Rolex', ',de'), row('Ashford', 'Omega', ',fr')]);
    expect(await refusal(loadHoldings([path], rules))).toBe(
      `portfolio "Ashford" is given two languages: de (${path} row 2) and fr (${path} row 3); a portfolio's documents are in one language, so give one`,
    );
  });

  it('refuses an unsupported tag, naming the row and field and listing the supported ones', async () => {
    const path = file('pt.csv', [`${HEAD},language`, row('Ashford', 'Rolex', ',de'), row('Brook', 'Omega', ',pt-BR')]);
    expect(await refusal(loadHoldings([path], rules))).toBe(`${path} row 3, language: "pt-BR" is not a supported language; use one of ${SUPPORTED}`);
  });

  it('takes one language per portfolio across its holdings and transactions files', async () => {
    const holdings = file('h.csv', [`${HEAD},language`, row('Ashford', 'Rolex', ',ja')]);
    const agree = file('agree.csv', ['portfolio,date,type,amount,currency,language', 'Ashford,2026-05-02,fee,100,USD,JA']);
    expect((await readRunInputs([holdings, agree], rules)).portfolios.map((p) => [p.name, p.language])).toEqual([['Ashford', 'ja']]);
    const ledgerOnly = file('ledger-only.csv', ['portfolio,date,type,amount,currency,segment,brand,model,quantity,language', 'Dunmore,2026-05-02,buy,1000,USD,watches,Rolex,Datejust,1,ar']);
    expect((await readRunInputs([ledgerOnly], rules)).portfolios.map((p) => [p.name, p.language])).toEqual([['Dunmore', 'ar']]);
    const disagree = file('disagree.csv', ['portfolio,date,type,amount,currency,language', 'Ashford,2026-05-02,fee,100,USD,it']);
    expect(await refusal(readRunInputs([holdings, disagree], rules))).toMatch(/^portfolio "Ashford" is given two languages: ja \(.*h\.csv row 2\) and it \(.*disagree\.csv row 2\)/);
  });
});

describe('the report data', () => {
  const ctx: BuildContext = { asOf: '2026-10-31', currency: 'USD', generatedAt: '2026-11-01T06:00:00.000Z', sandbox: true };
  const omitted = { included: false as const, note: 'Omitted: test.' };
  const results: PortfolioResults = {
    valuations: [{ ok: true, low: 9, mid: 10, high: 11, currency: 'USD', confidence: 0.8, service_score: 70, momentum: 'positive', market_validated: false }],
    scores: [null],
    performance: omitted,
    projections: omitted,
    exits: omitted,
    problems: [],
  };
  const input = (name: string, language?: 'de-CH') => ({
    name,
    files: ['p.csv'],
    problems: [],
    ...(language ? { language } : {}),
    holdings: [{ portfolio: name, source: { file: 'p.csv', row: 2 }, segment: 'watches' as const, assetId: 'SVC-WAT-ROLEX-X', brand: 'Rolex', model: 'M', quantity: 1, purchasePrice: 5, purchaseDate: '2024-10-31' }],
  });

  it("is the portfolio's language, else the run's, else en; the consolidated report's is the run's", () => {
    expect(buildPortfolioReport(input('A', 'de-CH'), results, { ...ctx, language: 'fr' }).language).toBe('de-CH');
    expect(buildPortfolioReport(input('B'), results, { ...ctx, language: 'fr' }).language).toBe('fr');
    expect(buildPortfolioReport(input('B'), results, ctx).language).toBe('en');
    const parts = [input('A', 'de-CH'), input('B')].map((p) => ({ input: p, results }));
    expect(buildConsolidatedReport(parts, omitted, { ...ctx, language: 'ja' }).language).toBe('ja');
  });

  it("gives the consolidated report the firm's words in the run's language, else the firm's with a warning naming it, said and noted", () => {
    writeFileSync(join(dir, 'managers.csv'), 'portfolio,name,email,phone,title,title_de\nA,Anna Keller,,,Relationship manager,Kundenbetreuerin\n');
    writeFileSync(join(dir, 'brand.json'), JSON.stringify({ firm_name: 'Ashgrove & Vale', managers: 'managers.csv', cover_title: { en: 'Wealth report', de: 'Vermögensbericht' }, footer: { en: 'London', de: 'Zürich' }, disclosures: { en: 'Estimates.' } }));
    const said: string[] = [];
    const parts = [input('A'), input('B')].map((p) => ({ input: p, results }));
    const report = buildConsolidatedReport(parts, omitted, { ...ctx, language: 'de', brand: loadBrand(join(dir, 'brand.json')) }, (line) => said.push(line));
    expect([report.brand?.coverTitle, report.brand?.footer, report.brand?.disclosures]).toEqual(['Vermögensbericht', 'Zürich', ['Estimates.']]);
    const warning = `Portfolio "Consolidated": the brand's disclosures has no text in de; its en text (the firm's language) is used.`;
    expect(said).toEqual([warning]);
    expect(report.analyst_notes).toContain(warning);
    // Addressed to no client: no manager is carried, so none is shown with a title in any language.
    expect(report.brand?.managers.size).toBe(0);
  });

  it('is written to the JSON, which the schema (1.5) accepts; an unsupported tag it refuses', () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync('reports/schema/portfolio-report.schema.json', 'utf8')));
    const doc = { ...reportDocumentHead(buildPortfolioReport(input('A', 'de-CH'), results, ctx)), holdings: [], errors: [] };
    // 1.5 added the language; later versions keep it.
    expect(Number(REPORT_SCHEMA_VERSION.split('.')[1])).toBeGreaterThanOrEqual(5);
    expect(doc.language).toBe('de-CH');
    expect(validate(doc)).toBe(true);
    expect(validate({ ...doc, language: 'pt' })).toBe(false);
    // A document written before 1.5 has none, and is still valid.
    const { language: _, ...before } = doc;
    expect(validate({ ...before, schema_version: '1.4.0' })).toBe(true);
  });
});

describe('a queued job', () => {
  const job = (portfolio: Record<string, unknown>, language?: string) => ({
    runKey: 'a'.repeat(64),
    runId: 'd'.repeat(32),
    folder: 'run',
    portfolio: { name: 'P', files: ['p.csv'], holdings: [], problems: [], ...portfolio },
    portfolioSha256: 'b'.repeat(64),
    expiresAt: '2026-11-30T00:00:00.000Z',
    asOf: '2026-10-31',
    currency: 'USD',
    asked: 'USD',
    formats: ['json'],
    generatedAt: '2026-10-30T06:00:00.000Z',
    sandbox: true,
    ...(language ? { language } : {}),
  });

  it("carries the portfolio's language and the run's to the worker, and a worker refuses an unsupported one", () => {
    expect(checkJobData(job({ language: 'de-CH' }, 'fr'))).toMatchObject({ ok: true, data: { language: 'fr', portfolio: { language: 'de-CH' } } });
    expect(checkJobData(job({}))).toMatchObject({ ok: true });
    expect(checkJobData(job({ language: 'pt' }))).toMatchObject({ ok: false, why: expect.stringMatching(/^job data portfolio\.language: /) });
    expect(checkJobData(job({}, 'xx'))).toMatchObject({ ok: false, why: expect.stringMatching(/^job data language: /) });
  });
});

describe('svc-report run --language', { timeout: 240_000 }, () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await testSandbox();
  });
  afterAll(async () => {
    await sb?.close();
  });

  it("writes each portfolio in its language, the others and the consolidated report in the run's", async () => {
    const path = file('run.csv', [`${HEAD},language`, row('Ashford', 'Rolex', ',DE-CH'), row('Brook', 'Omega', ',')]);
    const out = join(dir, 'run-out');
    const r = await runCli(['run', path, '--out', out, '--formats', 'json', '--as-of', '2026-10-31', '--language', 'fr', '--db', 'off'], serviceEnv(sb));
    expect(r.stderr).not.toMatch(/unexpected error/);
    const languages = Object.fromEntries(
      r.stdout.trim().split('\n').filter((l) => l.endsWith('.json')).map((l) => {
        const doc = readJson(l.trim());
        return [doc.portfolio.name, doc.language];
      }),
    );
    expect(languages).toEqual({ Ashford: 'de-CH', Brook: 'fr', Consolidated: 'fr' });
  });

  it('refuses an unsupported --language with exit 2, listing the supported ones, before any call', async () => {
    const before = (await sb.log()).length;
    const path = file('flag.csv', [HEAD, row('Ashford', 'Rolex')]);
    const r = await runCli(['run', path, '--out', join(dir, 'flag-out'), '--language', 'pt'], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--language: "pt" is not a supported language; use one of ${SUPPORTED}`);
    expect((await sb.log()).length).toBe(before);
  });
});
