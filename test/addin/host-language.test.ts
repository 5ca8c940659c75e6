import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLimits } from '../../src/client';
import type { LimitSource } from '../../src/client/account-limit';
import { translator, type Language, type MessageKey } from '../../src/i18n';
import addinEnglish from '../../src/i18n/messages/addin/en.json';
import { acceptedLanguage } from '../../addin/server/host-text';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
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

describe('the host answers in the stated language', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ host: { refreshIntervalMs: 3_600_000 } });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const ask = (path: string, language: string | undefined, init: RequestInit = {}) =>
    fetch(`${stack.host.url}${path}`, { ...init, headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, 'content-type': 'application/json', ...(language ? { 'accept-language': language } : {}), ...(init.headers as Record<string, string>) } });
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
});
