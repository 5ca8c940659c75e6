import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLimits } from '../../src/client';
import type { LimitSource } from '../../src/client/account-limit';
import { translator, type Language, type MessageKey } from '../../src/i18n';
import addinEnglish from '../../src/i18n/messages/addin/en.json';
import { acceptedLanguage } from '../../addin/server/host-text';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE, DEPLOYMENT_KEY_HEADER } from '../../addin/src/shared/host-connection';
import type { HistorySource, RecordedPerformance } from '../../addin/server/history-source';
import { startStack, type Stack } from './stack';

/**
 * The add-in host's own sentences in the language the pane states (Accept-Language: Excel's
 * display language; docs/decisions.md "The add-in host's sentences"): refusals, the limits in
 * force; `error.type` unchanged; English, and a caller stating no language, exactly as before.
 */
const ENGLISH = addinEnglish as Record<string, string>;

describe('the language a request states', () => {
  it.each([
    ['de', 'de'],
    ['de-DE', 'de'],
    ['de-CH,de;q=0.9', 'de-CH'],
    ['ja-JP', 'ja'],
    ['zh-CN', 'zh-Hans'],
    ['xx-YY, fr;q=0.4, de;q=0.8', 'de'],
    ['en-US,de;q=0.9', 'en'],
    ['de;q=0, ja;q=0.1', 'ja'],
    ['*', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    ['<script>', 'en'],
  ] as const)('%s → %s', (header, lang) => {
    expect(acceptedLanguage(header)).toBe(lang);
  });
});

describe('the limits in force, in the language', () => {
  const sources: (LimitSource | undefined)[] = ['service', 'tier', 'ceiling', undefined];
  const cases = [undefined, 3_000].flatMap((minuteLimit) =>
    [undefined, 500_000].flatMap((dayLimit) => sources.flatMap((minuteLimitSource) => sources.map((dayLimitSource) => ({ minuteLimit, dayLimit, minuteLimitSource, dayLimitSource })))),
  );

  /** The English sentence as the analyst notes have always said it, written again here (not from the catalogue). */
  const FROM: Record<LimitSource, string> = {
    service: 'as the service states them for this account',
    tier: "the tier's published limits, used until the service states the account's own",
    ceiling: 'a ceiling set in this configuration, below what the account allows',
  };
  function englishAsBefore(c: (typeof cases)[number]): string {
    const minute = c.minuteLimit === undefined ? undefined : `${c.minuteLimit.toLocaleString('en-US')} a minute`;
    const day = c.dayLimit === undefined ? undefined : `${c.dayLimit.toLocaleString('en-US')} a day`;
    if (!minute && !day) return 'not known yet: the service states them on its first answer';
    const mFrom = c.minuteLimitSource && FROM[c.minuteLimitSource];
    const dFrom = c.dayLimitSource && FROM[c.dayLimitSource];
    if (minute && day && mFrom === dFrom) return `${minute} and ${day}${mFrom ? `, ${mFrom}` : ''}`;
    return [minute && `${minute}${mFrom ? `, ${mFrom}` : ''}`, day && `${day}${dFrom ? `, ${dFrom}` : ''}`].filter(Boolean).join('; ');
  }

  it('English reads exactly as the analyst notes have always said it, in every combination (the default and the en translator alike)', () => {
    for (const c of cases) {
      expect(describeLimits(c)).toBe(englishAsBefore(c));
      expect(describeLimits(c, translator('en'))).toBe(englishAsBefore(c));
    }
  });

  it.each(['de', 'ja', 'ar'] as const)('%s: no English phrase of it is left', (lang) => {
    for (const c of cases) {
      const text = describeLimits(c, translator(lang));
      for (const phrase of ['a minute', 'a day', 'not known yet', 'as the service states', "the tier's published", 'a ceiling set']) expect(text, JSON.stringify(c)).not.toContain(phrase);
    }
    expect(describeLimits(cases.at(-1)!, translator(lang))).toContain(translator(lang).number(3_000));
  });
});

/** The engine's reason a period is not covered, as src/performance words it (stable English, kept as is in the report's JSON). */
const NOT_COVERED = "not enough history: the portfolio's first flow is on 2025-08-10, after the period's start (2024-12-31)";
const AS_OF = '2025-11-30';
const recorded = (problem?: RecordedPerformance['problem']): RecordedPerformance => ({
  asOf: AS_OF,
  currency: 'USD',
  periods: { as_of: AS_OF, periods: { mtd: null, qtd: null, ytd: null, '1y': null, '3y': null, since_inception: null }, unavailable: { ytd: NOT_COVERED } },
  ...(problem ? { problem } : {}),
});
/** A history database standing in for the firm's: nothing recorded but two portfolios' performance, one with a flow it cannot convert. */
const history: HistorySource = {
  monthEnds: async () => [],
  portfolios: async () => ['Okafor Household', 'Secret Client A'],
  performance: async (p) => (p === 'Okafor Household' ? recorded() : p === 'Okafor Euro' ? recorded({ file: 'ledger.csv', row: 4, currency: 'EUR' }) : undefined),
  past: async () => undefined,
};
const KEY = 'deploy-key-host-language-01';

describe('the host answers in the stated language', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ host: { refreshIntervalMs: 3_600_000, deploymentKey: KEY, history, portfolioAccess: { roles: {}, groups: {}, deployment_key: ['Okafor *', 'Nobody'] } } });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const ask = (path: string, language: string | undefined, init: RequestInit = {}) =>
    fetch(`${stack.host.url}${path}`, {
      ...init,
      headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY, 'content-type': 'application/json', ...(language ? { 'accept-language': language } : {}), ...(init.headers as Record<string, string>) },
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { type: string; message: string } }).error;
  const message = (lang: Language, key: string, values?: Record<string, string | number>) => translator(lang).t(`addin.${key}` as MessageKey, values);

  it('a refusal of the report export: the sentence in de and ja, English without a stated language, the machine code the same', async () => {
    const grid = [['brand', 'model'], ['Rolex', 'Submariner']];
    const post = async (language?: string) => {
      const res = await ask('/addin/report', language, { method: 'POST', body: JSON.stringify({ format: 'csv', grid }) });
      return { status: res.status, error: await errorOf(res) };
    };
    const [de, ja, none, en] = await Promise.all([post('de-DE'), post('ja-JP'), post(), post('en-US')]);
    expect(de).toEqual({ status: 400, error: expect.objectContaining({ type: 'validation_error', message: message('de', 'host_no_header') }) });
    expect(ja).toEqual({ status: 400, error: expect.objectContaining({ type: 'validation_error', message: message('ja', 'host_no_header') }) });
    expect(de.error.message).not.toBe(ENGLISH.host_no_header);
    expect(none.error.message).toBe('The selection has no header row naming an asset_id or segment column.');
    expect(en.error.message).toBe(none.error.message);
    // The body reader's refusal too.
    const bad = await errorOf(await ask('/addin/report', 'ja', { method: 'POST', body: '{' }));
    expect(bad.message).toBe(message('ja', 'host_body_not_json'));
  });

  it('a refresh asked again too soon: 429 with the wait in the language', async () => {
    expect((await ask('/addin/refresh', 'de', { method: 'POST', body: '{}' })).status).toBe(200);
    const again = await ask('/addin/refresh', 'de', { method: 'POST', body: '{}' });
    expect(again.status).toBe(429);
    const seconds = Number(again.headers.get('retry-after'));
    expect((await errorOf(again)).message).toBe(message('de', 'host_refresh_own', { seconds: String(seconds) }));
    const english = await errorOf(await ask('/addin/refresh', undefined, { method: 'POST', body: '{}' }));
    expect(english.message).toMatch(/^You cleared the host's cache moments ago; try again in \d+ s\.$/);
  });

  it("the status's limits in force follow the language; English is describeLimits' sentence", async () => {
    const status = async (language?: string) => ((await (await ask('/addin/status', language)).json()) as { limits_in_force: string }).limits_in_force;
    const [de, en] = [await status('de'), await status()];
    expect(en).toMatch(/a minute|not known yet/);
    expect(de).not.toMatch(/a minute|a day|not known yet|as the service/);
    expect(de).toMatch(/pro Minute|noch nicht bekannt/);
  });

  /** SVC.HISTORY's and SVC.PERFORMANCE's reasons (the cells show them as #N/A/#VALUE!) in de, ja and without a language. */
  const errorsIn = async (path: string) => {
    const [de, ja, none] = await Promise.all(['de-DE', 'ja-JP', undefined].map(async (l) => errorOf(await ask(path, l))));
    return { de: de!, ja: ja!, none: none! };
  };

  it("SVC.HISTORY's reasons: nothing recorded (with its range), not allowed, dates the wrong way round, a control character; English as before", async () => {
    const nobody = await errorsIn('/addin/history?key=Nobody');
    expect(nobody.none).toEqual(expect.objectContaining({ type: 'no_history', message: 'no history recorded for the portfolio Nobody.' }));
    expect(nobody.de.message).toBe('keine Historie erfasst für das Portfolio Nobody.');
    expect(nobody.ja.message).toBe(message('ja', 'host_no_history', { kind: 'portfolio', key: 'Nobody', range: 'none', from: '', to: '' }));
    expect(nobody.de.type).toBe('no_history');

    const ranged = await errorsIn('/addin/history?key=Nobody&from=2025-01-31');
    expect(ranged.none.message).toBe('no history recorded for the portfolio Nobody between 2025-01-31 and now.');
    expect(ranged.de.message).toBe('keine Historie erfasst für das Portfolio Nobody zwischen 2025-01-31 und heute.');
    expect((await errorOf(await ask('/addin/history?key=Nobody&to=2025-03-31', undefined))).message).toBe('no history recorded for the portfolio Nobody between the start and 2025-03-31.');
    expect((await errorOf(await ask('/addin/history?key=Nobody&from=2025-01-31&to=2025-03-31', undefined))).message).toBe('no history recorded for the portfolio Nobody between 2025-01-31 and 2025-03-31.');

    const secret = await errorsIn(`/addin/history?key=${encodeURIComponent('Secret Client A')}`);
    expect(secret.none).toEqual(expect.objectContaining({ type: 'portfolio_not_allowed', message: 'not allowed to read the history of the portfolio Secret Client A: your administrator grants portfolios to your role or group (ADDIN_PORTFOLIO_ACCESS).' }));
    expect(secret.de.message).toBe(message('de', 'host_not_allowed_history', { portfolio: 'Secret Client A' }));
    expect(secret.ja.message).toMatch(/^ポートフォリオ Secret Client A の履歴を読み取る権限がありません/);
    // An asset's history sums every portfolio, some of which this key may not read.
    const asset = await errorsIn('/addin/history?key=SVC-WAT-ROLEX-126610LN-2021');
    expect(asset.none.message).toBe('not allowed to read the history of the asset SVC-WAT-ROLEX-126610LN-2021, which sums every portfolio holding it, some of which you may not see: your administrator grants portfolios to your role or group (ADDIN_PORTFOLIO_ACCESS).');
    expect(asset.de.message).toBe(message('de', 'host_not_allowed_asset_history', { asset: 'SVC-WAT-ROLEX-126610LN-2021' }));

    const reversed = await errorsIn('/addin/history?key=Nobody&from=2025-03-31&to=2025-01-31');
    expect(reversed.none).toEqual(expect.objectContaining({ field: 'from', message: 'from (2025-03-31) is after to (2025-01-31).' }));
    expect(reversed.ja.message).toBe(message('ja', 'cell_from_after_to', { from: '2025-03-31', to: '2025-01-31' }));
    const badDate = await errorsIn('/addin/history?key=Nobody&from=2025-02-30');
    expect(badDate.none.message).toBe('from must be a date that exists, as YYYY-MM-DD.');
    expect(badDate.de.message).toBe('from muss ein existierendes Datum im Format JJJJ-MM-TT sein.');
    expect((await errorOf(await ask('/addin/history?key=Nobody&from=March', undefined))).message).toBe('from must be a date as YYYY-MM-DD.');
    const control = await errorsIn('/addin/history?key=Okafor%00Household');
    expect(control.none.message).toBe('The query parameter key holds a control character (U+0000); send it as plain text without control characters.');
    expect(control.ja.message).toBe(message('ja', 'host_query_control', { field: 'key', code: 'U+0000' }));
    for (const e of [nobody, ranged, secret, asset, reversed, badDate, control]) {
      expect(e.de.message).not.toBe(e.none.message);
      expect(e.ja.message).not.toBe(e.none.message);
    }
  });

  it("SVC.PERFORMANCE's reasons: a period not covered (the engine's reason in the language), a flow it cannot convert, nothing recorded, a bad period; English as before", async () => {
    const ytd = await errorsIn(`/addin/performance?portfolio=${encodeURIComponent('Okafor Household')}&period=ytd`);
    expect(ytd.none).toEqual(expect.objectContaining({ type: 'period_not_covered', message: `Okafor Household, ytd to ${AS_OF}: ${NOT_COVERED}.` }));
    // The engine's reason said as the report says it in that language: its dates the locale's, none of its English left.
    // The as-of date too (the period's name is the formula's argument: it stays).
    expect(ytd.de.message).toMatch(new RegExp(`^Okafor Household, ytd bis ${translator('de').date(AS_OF)}: `));
    expect(ytd.de.message).toContain(translator('de').date('2025-08-10'));
    expect(ytd.ja.message).toContain(translator('ja').date('2025-08-10'));
    for (const m of [ytd.de.message, ytd.ja.message]) expect(m).not.toMatch(/enough|history|first flow|period's start|\d{4}-\d{2}-\d{2}/);
    // A period the engine gives no reason for.
    const mtd = await errorsIn(`/addin/performance?portfolio=${encodeURIComponent('Okafor Household')}&period=mtd`);
    expect(mtd.none.message).toBe(`Okafor Household, mtd to ${AS_OF}: not available.`);
    expect(mtd.de.message).not.toMatch(/not available/);

    const euro = await errorsIn(`/addin/performance?portfolio=${encodeURIComponent('Okafor Euro')}&period=mtd`);
    expect(euro.none.message).toBe(`Okafor Euro, mtd to ${AS_OF}: a flow of the ledger (ledger.csv row 4) is in EUR: the add-in host holds no exchange rates to convert it to USD; see the month-end report.`);
    expect(euro.de.message).toBe(message('de', 'host_period_not_covered', { portfolio: 'Okafor Euro', period: 'mtd', asOf: translator('de').date(AS_OF), reason: message('de', 'host_flow_not_converted', { file: 'ledger.csv', row: '4', currency: 'EUR', reporting: 'USD' }) }));

    const nobody = await errorsIn('/addin/performance?portfolio=Nobody&period=mtd');
    expect(nobody.none.message).toBe('no history recorded for the portfolio Nobody.');
    expect(nobody.ja.message).toBe(message('ja', 'host_no_history', { kind: 'portfolio', key: 'Nobody', range: 'none', from: '', to: '' }));
    const secret = await errorsIn(`/addin/performance?portfolio=${encodeURIComponent('Secret Client A')}&period=mtd`);
    expect(secret.none.message).toMatch(/^not allowed to read the performance of the portfolio Secret Client A: /);
    expect(secret.de.message).toBe(message('de', 'host_not_allowed_performance', { portfolio: 'Secret Client A' }));

    const badPeriod = await errorsIn('/addin/performance?portfolio=Nobody&period=5y');
    expect(badPeriod.none).toEqual(expect.objectContaining({ field: 'period', message: 'period must be one of mtd, qtd, ytd, 1y, 3y, since_inception (got "5y").', allowed_values: ['mtd', 'qtd', 'ytd', '1y', '3y', 'since_inception'] }));
    expect(badPeriod.de.message).toBe('period muss einer der Werte mtd, qtd, ytd, 1y, 3y, since_inception sein (erhalten: „5y“).');
    const noPeriod = await errorsIn('/addin/performance?portfolio=Nobody');
    expect(noPeriod.none.message).toBe('period must be one of mtd, qtd, ytd, 1y, 3y, since_inception.');
    expect(noPeriod.ja.message).toBe(message('ja', 'host_query_choice', { field: 'period', allowed: 'mtd, qtd, ytd, 1y, 3y, since_inception' }));
    const noName = await errorsIn('/addin/performance?portfolio=%20&period=mtd');
    expect(noName.none.message).toBe("portfolio must be a portfolio's name.");
    expect(noName.de.message).toBe('portfolio muss der Name eines Portfolios sein.');
    for (const e of [ytd, mtd, euro, nobody, secret, badPeriod, noPeriod, noName]) expect(e.de.message).not.toBe(e.none.message);
  });
});
