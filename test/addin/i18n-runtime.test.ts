import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import addinEnglish from '../../src/i18n/messages/addin/en.json';
import { translator, type Language, type MessageKey } from '../../src/i18n';
import { N_A, VALUE, openEntryPageIn, useExcelStack, type ExcelPage } from './excel-harness';
import type { HistorySource } from '../../addin/server/history-source';

/**
 * The add-in in Excel's display language (issue 36), under Microsoft's runtime (office.js +
 * excel-web-16.00.js, the display language in the host information Excel gives the page):
 * the pane's words in that language, Arabic right to left, the pseudo-locale proving no pane word
 * is hard-coded, the functions' descriptions Excel would read through the manifest's locale
 * override for that culture (served by the host), and a cell's error message in German.
 */
/** The engine's reason a period is not covered (stable English, as src/performance words it). */
const NOT_COVERED = "not enough history: the portfolio's first flow is on 2025-08-10, after the period's start (2024-12-31)";
/** The firm's history database stood in for: nothing recorded, one portfolio whose year to date is not covered. */
const history: HistorySource = {
  monthEnds: async () => [],
  portfolios: async () => ['Okafor Household'],
  performance: async (p) =>
    p === 'Okafor Household'
      ? { asOf: '2025-11-30', currency: 'USD', periods: { as_of: '2025-11-30', periods: { mtd: null, qtd: null, ytd: null, '1y': null, '3y': null, since_inception: null }, unavailable: { ytd: NOT_COVERED } } }
      : undefined,
  past: async () => undefined,
};
const env = useExcelStack('i18n', 1, undefined, { history });
const WAIT_MS = 60_000;
const ENGLISH = addinEnglish as Record<string, string>;

interface PaneText {
  lang: string;
  dir: string;
  /** Each marked element: its key and its text. */
  marked: [string, string][];
  body: string;
}

/** Opens the entry page as Excel in `culture` shows it and reads the pane once Office is ready and the pane localised. */
async function paneIn(culture: string, lang: Language): Promise<{ excel: ExcelPage; text: PaneText }> {
  const excel = await openEntryPageIn(await env.build.browser.newContext(), env.stack.host.url, culture);
  await excel.page.waitForFunction((l) => document.documentElement.lang === l && document.getElementById('addin-version')?.textContent !== '', lang, { timeout: WAIT_MS });
  const text = await excel.page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    marked: [...document.querySelectorAll<HTMLElement>('[data-i18n]')].map((e) => [e.getAttribute('data-i18n')!, e.textContent ?? ''] as [string, string]),
    // textContent: the words as written (innerText would give CSS's upper-cased headings); the product's name is a proper name.
    body: (document.body.textContent ?? '').replace(/\s+/g, ' ').replace('SVC Luxury Valuations', ''),
  }));
  return { excel, text };
}

/**
 * English catalogue phrases with no placeholder that the language says differently: none may be left in its pane.
 * Phrases only: a single word ("segment", "brand") is also a column name the hint names as it is (every marked word is checked against its catalogue below).
 */
const englishLeft = (body: string, lang: Language) =>
  Object.entries(ENGLISH)
    .filter(([key, en]) => !en.includes('{') && /\s/.test(en.trim()) && translator(lang).t(`addin.${key}` as MessageKey) !== en)
    .map(([, en]) => en)
    .filter((en) => body.includes(en));

/** The functions' metadata Excel in `culture` reads: the manifest's override of the metadata URL for it, fetched from the host. */
async function metadataFor(culture: string): Promise<{ url: string; functions: { id: string; description: string; parameters: { name: string; description: string }[] }[] }> {
  const manifest = await readFile(path.join(env.build.dist, 'manifest.xml'), 'utf8');
  const xpath = `string(//*[local-name()='Url'][@id='Functions.Metadata.Url']/*[local-name()='Override'][@Locale='${culture}']/@Value)`;
  const url = execFileSync('xmllint', ['--xpath', xpath, '-'], { input: manifest }).toString().trim();
  expect(url, `an override of the metadata URL for ${culture}`).toMatch(/^https?:\/\/.+\/functions\.[A-Za-z-]+\.json$/);
  // The build's origin is the default one; the host serving this build answers the same path.
  const res = await fetch(`${env.stack.host.url}${new URL(url).pathname}`);
  expect(res.status).toBe(200);
  return { url, ...((await res.json()) as { functions: never[] }) };
}

describe.each([
  ['de-DE', 'de', 'Verbindung', 'Bericht exportieren'],
  ['fr-FR', 'fr', 'Connexion', 'Exporter le rapport'],
  ['ja-JP', 'ja', '接続', 'レポートをエクスポート'],
] as const)('Excel in %s', (culture, lang, connection, exportReport) => {
  it('the pane speaks the language: every marked text from its catalogue, no English catalogue sentence left', async () => {
    const { excel, text } = await paneIn(culture, lang);
    try {
      expect(text.lang).toBe(lang);
      expect(text.dir).toBe('ltr');
      expect(text.body).toContain(connection);
      expect(text.body).toContain(exportReport);
      for (const [key, shown] of text.marked) expect(shown, key).toBe(translator(lang).t(key as MessageKey));
      expect(englishLeft(text.body, lang)).toEqual([]);
      // The version line is a catalogue message too, not English around the release.
      expect(text.body).toContain(translator(lang).t('addin.version', { release: '', build: '' }).split(' ')[0]!);
    } finally {
      await excel.close();
    }
  }, 120_000);

  it("the functions' descriptions and argument help Excel reads for the culture are in the language; ids and names stay", async () => {
    const { functions } = await metadataFor(culture);
    expect(functions.map((f) => f.id)).toEqual(env.build.metadata.map((f) => f.id));
    const english = new Map(env.build.metadata.map((f) => [f.id, f as unknown as (typeof functions)[number]]));
    for (const f of functions) {
      const en = english.get(f.id)!;
      expect((f as unknown as { name: string }).name).toBe((en as unknown as { name: string }).name);
      expect(f.description, f.id).toBe(translator(lang).t(`addin.fn.${f.id}` as MessageKey));
      expect(f.description, f.id).not.toBe(en.description);
      f.parameters.forEach((p, i) => {
        expect(p.name).toBe(en.parameters[i]!.name);
        // Lists of the service's own field names (SIGNAL's fields, the periods) read the same in every language.
        const key = `fn.${f.id}.${p.name}` in ENGLISH ? `fn.${f.id}.${p.name}` : `param.${p.name}`;
        if (translator(lang).t(`addin.${key}` as MessageKey) !== ENGLISH[key]) expect(p.description, `${f.id}(${p.name})`).not.toBe(en.parameters[i]!.description);
        expect(p.description, `${f.id}(${p.name})`).toBe(translator(lang).t(`addin.${key}` as MessageKey));
      });
    }
  });
});

describe('Excel in ar-SA and in the pseudo-locale', () => {
  it('ar: the pane right to left (dir="rtl"), its headings in Arabic, the layout mirrored', async () => {
    const { excel, text } = await paneIn('ar-SA', 'ar');
    try {
      expect(text.dir).toBe('rtl');
      expect(text.body).toContain('الاتصال');
      expect(englishLeft(text.body, 'ar')).toEqual([]);
      // Mirrored: the header's icon and the status list's first column (its labels) are drawn at the right.
      const sides = await excel.page.evaluate(() => {
        const middle = (el: Element) => { const r = el.getBoundingClientRect(); return r.left + r.width / 2; };
        const header = document.querySelector('header')!.getBoundingClientRect();
        const list = document.querySelector('#status dl')!.getBoundingClientRect();
        return { icon: middle(document.querySelector('header img')!), headerMiddle: header.left + header.width / 2, label: middle(document.querySelector('#status dt')!), value: middle(document.querySelector('#status dd')!), listMiddle: list.left + list.width / 2 };
      });
      expect(sides.icon).toBeGreaterThan(sides.headerMiddle);
      expect(sides.label).toBeGreaterThan(sides.value);
    } finally {
      await excel.close();
    }
  }, 120_000);

  it('en-XA: every text the pane owns is accented: nothing of it is hard-coded English', async () => {
    const { excel, text } = await paneIn('en-XA', 'en-XA');
    try {
      expect(text.marked.length).toBeGreaterThan(30);
      for (const [key, shown] of text.marked) expect(shown, key).not.toMatch(/[A-Za-z]/);
      // The whole visible page: only proper names and the service's own words may be unaccented.
      const owned = await excel.page.evaluate(() => {
        const notOurs = ['h1', '#currency', '#report-format', '#status-tier', '#status-limits', '#status-problem', '#status-minute', '#status-day', 'title'];
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement!;
          if (notOurs.some((s) => el.closest(s))) continue;
          if (el.closest('[hidden]') || !n.textContent?.trim()) continue;
          out.push(n.textContent.trim());
        }
        return out;
      });
      // The service's label (a name) and the build id are data inside accented messages; no English word of ours remains.
      const english = owned.flatMap((t) => t.replace(/test sandbox|[0-9a-f]{16}|\d+\.\d+\.\d+/g, '').match(/[A-Za-z]{2,}/g) ?? []);
      expect(english).toEqual([]);
    } finally {
      await excel.close();
    }
  }, 120_000);
});

describe('cell errors in Excel in de-DE', () => {
  it('#VALUE! and #N/A say why in German', async () => {
    const excel = await openEntryPageIn(await env.build.browser.newContext(), env.stack.host.url, 'de-DE');
    try {
      await excel.page.waitForFunction(() => document.documentElement.lang === 'de', null, { timeout: WAIT_MS });
      const [bad, unknown] = await excel.results(await excel.invoke([env.build.cell('MIDVALUE', [env.ids[0], 'JPY']), env.build.cell('SCORE', ['SVC-WAT-NOSUCH-XYZ-2021'])]));
      expect(bad!.errorCode).toBe(VALUE);
      expect(bad!.message).toBe('currency muss einer der Werte USD, EUR, GBP sein (erhalten: „JPY“).');
      expect(unknown!.errorCode).toBe(N_A);
      // The service's own reason inside stays as it wrote it; the sentence around it is German.
      expect(unknown!.message).toMatch(/^Nicht gefunden: asset_id 'SVC-WAT-NOSUCH-XYZ-2021' .*; zum Beispiel SVC-WAT-\S+/);
    } finally {
      await excel.close();
    }
  }, 120_000);
});

/**
 * The functions runtime's and the host's own sentences in a cell (SVC.HISTORY, SVC.PERFORMANCE and
 * a valuation with the host gone), in Excel's display language: the runtime states it on every
 * request to the host (Accept-Language), the host answers in it, the runtime says its own in it.
 */
describe('the host’s and the runtime’s reasons in a cell, in Excel’s language', () => {
  const CELLS = () => [env.build.cell('HISTORY', ['Nobody']), env.build.cell('PERFORMANCE', ['Okafor Household', 'ytd'])];
  /** The cells' messages with the host there, then with the network gone, and the Accept-Language of each request the runtime sent to the host. */
  async function reasonsIn(culture: string, lang: Language) {
    const context = await env.build.browser.newContext();
    const excel = await openEntryPageIn(context, env.stack.host.url, culture);
    const languages = new Map<string, string | undefined>();
    excel.page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (/^\/(api\/v1|addin)\//.test(path)) languages.set(path, r.headers()['accept-language']);
    });
    try {
      await excel.page.waitForFunction((l) => document.documentElement.lang === l, lang, { timeout: WAIT_MS });
      const [noHistory, notCovered, valued] = await excel.results(await excel.invoke([...CELLS(), env.build.cell('MIDVALUE', [env.ids[0]])]));
      await context.setOffline(true);
      const [historyDown, valueDown] = await excel.results(await excel.invoke([env.build.cell('HISTORY', ['Okafor Household']), env.build.cell('MIDVALUE', [env.ids[0], 'EUR'])]));
      return { noHistory: noHistory!, notCovered: notCovered!, valued: valued!, historyDown: historyDown!, valueDown: valueDown!, languages };
    } finally {
      await excel.close();
      await context.close();
    }
  }

  /** English catalogue phrases (no placeholder, two words or more) that `lang` says otherwise: none may be in its cells. */
  const englishIn = (text: string, lang: Language) => [...englishLeft(text, lang), ...(text.match(/\b(no history|not enough|cannot be reached|unreachable|recorded for)\b/gi) ?? [])];

  it.each([
    ['de-DE', 'de'],
    ['ja-JP', 'ja'],
  ] as const)('%s: nothing recorded, a period not covered, the host gone: each #N/A says it in the language; every request states it', async (culture, lang) => {
    const tr = translator(lang);
    const r = await reasonsIn(culture, lang);
    expect(r.valued.ok, r.valued.message).toBe(true);
    for (const cell of [r.noHistory, r.notCovered, r.historyDown, r.valueDown]) expect(cell).toMatchObject({ ok: false, errorCode: N_A });
    expect(r.noHistory.message).toBe(tr.t('addin.host_no_history', { kind: 'portfolio', key: 'Nobody', range: 'none', from: '', to: '' }));
    expect(r.notCovered.message).toMatch(new RegExp(`^Okafor Household.+${tr.date('2025-11-30')}`));
    expect(r.notCovered.message).toContain(tr.date('2025-08-10'));
    // The host gone: SVC.HISTORY (the runtime's own call to the host) and a valuation not asked before (the shared client's) alike.
    expect(r.historyDown.message).toMatch(new RegExp(`^${literal(tr.t('addin.err_unreachable', { reason: tr.t('addin.fn_host_unreachable', { reason: '' }) }))}`));
    expect(r.valueDown.message).toBe(tr.t('addin.err_unreachable', { reason: tr.t('addin.host_unreachable') }));
    for (const cell of [r.noHistory, r.notCovered, r.historyDown, r.valueDown]) expect(englishIn(cell.message!.replace(/Failed to fetch/, ''), lang), cell.message).toEqual([]);
    // Every request to the host stated Excel's language, not the browser's: the valuation batch, the history, the performance.
    expect([...r.languages.keys()]).toEqual(expect.arrayContaining(['/api/v1/valuations/batch', '/addin/history', '/addin/performance']));
    for (const [path, language] of r.languages) expect(language, path).toBe(lang);
  }, 180_000);

  it('en-US: the same cells say exactly what they said before the catalogue', async () => {
    const r = await reasonsIn('en-US', 'en');
    expect(r.noHistory.message).toBe('no history recorded for the portfolio Nobody.');
    expect(r.notCovered.message).toBe(`Okafor Household, ytd to 2025-11-30: ${NOT_COVERED}.`);
    expect(r.historyDown.message).toMatch(/^The valuation service is unreachable: The add-in host cannot be reached: \S/);
    expect(r.valueDown.message).toMatch(/^The valuation service is unreachable: The service at http:\/\/127\.0\.0\.1:\d+\/api\/v1 could not be reached\.$/);
    for (const [path, language] of r.languages) expect(language, path).toBe('en');
  }, 180_000);
});

/** `text` as a regular expression matching it literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
