import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../src/sandbox';
import { SEGMENT_IDS } from '../../src/wire';
import { translator, type Language, type MessageKey, type MessageValues } from '../../src/i18n';
import { AREAS } from '../../src/i18n/catalogues';
import { buildAddin } from '../../addin/build/build';
import { SOURCES_SHEET } from '../../addin/src/taskpane/freeze-plan';
import { holdingsWorkbook, READ_FORMULAS, writePaneStandin } from '../../fixtures/pane-standin';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { startStack, type Stack } from './stack';

/**
 * The task pane's messages after a click or an event in Excel's display language (issue 36):
 * the pane's own code in chromium over an in-memory workbook (fixtures/pane-standin.ts), served
 * by the host, with `Office.context.displayLanguage` set as Excel sets it. In de and ja: the
 * budget, Refresh's question and its cancellation, Freeze and Restore, and the network gone
 * (Check connection, Refresh):
 * each sentence is the catalogue's in that language and no English catalogue phrase is shown.
 * In en the same clicks say exactly what they said before the catalogue.
 */
let stack: Stack;
let dist: string;
let browser: Browser;
let pageFile: string;

const IDS = 12;
const PANE_SIZE = { viewport: { width: 360, height: 1100 } };
const WAIT = { timeout: 30_000 };

/** Every English phrase of the addin catalogue (the literal runs of its messages, plural branches included) that no other language's catalogue also uses. */
function englishPhrases(lang: Language): string[] {
  const literals = (message: string): string[] => {
    const out: string[] = [];
    const walk = (nodes: unknown[]) => {
      for (const n of nodes as { type: number; value?: unknown; options?: Record<string, { value: unknown[] }> }[]) {
        if (n.type === 0 && typeof n.value === 'string') out.push(...n.value.split(/[{}()"“”„«»;:.,]/).map((s) => s.trim()));
        for (const o of Object.values(n.options ?? {})) walk(o.value);
      }
    };
    walk(new IntlMessageFormat(message, 'en').getAst() as unknown[]);
    return out.filter((s) => /[a-z]{2,} [a-z]{2,}/i.test(s) && s.length >= 8);
  };
  const area = AREAS.addin as unknown as { en: Record<string, string>; translations: Partial<Record<Language, Record<string, string>>> };
  const own = Object.values(area.translations[lang] ?? {}).join('\n');
  return [...new Set(Object.values(area.en).flatMap(literals))].filter((p) => !own.includes(p));
}

/** A pane in a fresh browser profile, in Excel's display language `culture` (as office.js gives it: Office.context.displayLanguage). */
async function openPane(culture: string, lang: Language): Promise<{ page: Page; profile: BrowserContext }> {
  const profile = await browser.newContext(PANE_SIZE);
  // The stand-in installs its Office global before the pane's script runs; Excel's language is set on it as office.js sets it.
  await profile.addInitScript((displayLanguage: string) => {
    let office: { context?: Record<string, unknown> } | undefined;
    Object.defineProperty(window, 'Office', {
      configurable: true,
      get: () => office,
      set: (v: typeof office) => {
        office = v;
        if (v?.context) v.context.displayLanguage = displayLanguage;
      },
    });
  }, culture);
  const page = await profile.newPage();
  await page.goto(`${stack.host.url}/${pageFile}`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang, WAIT);
  await expect.poll(() => page.textContent('#status-tier'), WAIT).toBe('starter');
  return { page, profile };
}

/** Clicks a button and waits for the pane's sentence to be `expected` (the "working" sentence in between does not count). */
async function clickFor(page: Page, id: string, expected: string | RegExp): Promise<string> {
  await page.click(`#${id}`);
  await expect.poll(() => page.textContent('#message'), WAIT).toMatch(typeof expected === 'string' ? new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : expected);
  return (await page.textContent('#message'))!;
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-pane-language-'));
  await buildAddin({ outDir: dist });
  stack = await startStack({ tier: 'starter', host: { distDir: dist } });
  const ids = await realCatalogueIds(stack.sandboxUrl, DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!, IDS);
  pageFile = await writePaneStandin(dist, holdingsWorkbook(ids, SEGMENT_IDS, 4));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe.each([
  ['de-DE', 'de'],
  ['ja-JP', 'ja'],
] as const)('the pane in Excel %s after clicks and events', (culture, lang) => {
  it('says the budget, the refresh question, freeze/restore and the offline sentences in the language, with no English catalogue phrase', async () => {
    const tr = translator(lang);
    const t = (key: string, values?: MessageValues) => tr.t(`addin.${key}` as MessageKey, values);
    const { page, profile } = await openPane(culture, lang);
    const shown: string[] = [];
    const keep = async (selector: string) => shown.push((await page.textContent(selector)) ?? '');
    try {
      // The budget: its labels and values, and the sentence.
      await page.click('#estimate-refresh');
      await expect.poll(() => page.textContent('#message'), WAIT).toMatch(/\d/);
      const labels = await page.$$eval('#budget-lines dt', (dts) => dts.map((d) => d.textContent));
      expect(labels).toEqual(['budget_cells', 'budget_distinct', 'budget_batch', 'budget_other', 'budget_time', 'budget_today'].map((k) => t(k)));
      const values = await page.$$eval('#budget-lines dd', (dds) => dds.map((d) => d.textContent ?? ''));
      expect(values[0]).toBe(tr.number(IDS * 4 + 4 + SEGMENT_IDS.length, 0));
      shown.push(...labels.map(String), ...values);
      await keep('#message');

      // Above the threshold (0 %): the question, then Cancel.
      await page.fill('#confirm-percent', '0');
      await clickFor(page, 'refresh-values', t('refresh_not_yet'));
      await keep('#budget-question');
      shown.push(await clickFor(page, 'budget-cancel', t('refresh_cancelled')));

      // Freeze and Restore: counts in the language's plural, the sources sheet named as it is.
      const formulas = Object.keys((await page.evaluate(READ_FORMULAS)) as Record<string, string>).length;
      shown.push(await clickFor(page, 'freeze', t('froze', { frozen: formulas, total: formulas, sheet: SOURCES_SHEET })));
      shown.push(await clickFor(page, 'restore', t('restored_svc', { count: formulas })));
      shown.push(await clickFor(page, 'restore', t('restore_none')));

      // The network gone: Check connection and Refresh say so in the language. (The host's own refusals in
      // the language the pane states: host-language.test.ts, over HTTP.)
      await profile.setOffline(true);
      await page.click('#status-refresh');
      await expect.poll(() => page.textContent('#status-service'), WAIT).toBe(t('not_connected'));
      await expect.poll(() => page.textContent('#status-problem'), WAIT).toBe(t('host_unreachable'));
      await keep('#status-problem');
      shown.push(await clickFor(page, 'refresh-values', t('host_unreachable')));
      await profile.setOffline(false);

      const text = shown.join('\n');
      expect(englishPhrases(lang).filter((p) => text.includes(p))).toEqual([]);
      // Nothing of it is a key or left in English words the catalogue does not hold either.
      expect(text).not.toMatch(/addin\.|\b(the|of|calls?|cells?|formulas?|left|today|cannot)\b/i);
    } finally {
      await profile.close();
    }
  }, 180_000);
});

describe.each([
  ['de-DE', 'de'],
  ['ja-JP', 'ja'],
  ['ar-SA', 'ar'],
] as const)('the help page from the pane in Excel %s', (culture, lang) => {
  it("opens in the pane's language: its section shown, the functions' descriptions from the catalogue, the English one hidden", async () => {
    const tr = translator(lang);
    const { page, profile } = await openPane(culture, lang);
    try {
      const href = await page.getAttribute('#help-link', 'href');
      expect(href).toBe(`help.html#${lang}`);
      const help = await profile.newPage();
      await help.goto(`${stack.host.url}/${href}`);
      const shown = await help.evaluate(() => document.body.innerText);
      expect(shown).toContain(tr.t('addin.help_title'));
      expect(shown).toContain(tr.t('addin.fn.MIDVALUE' as MessageKey));
      expect(shown).toContain('=SVC.MIDVALUE(asset, [currency])');
      expect(shown).not.toContain(translator('en').t('addin.help_intro'));
      expect(shown).not.toContain(translator('en').t('addin.fn.MIDVALUE' as MessageKey));
      expect(await help.evaluate((l) => document.getElementById(l)?.getAttribute('dir'), lang)).toBe(tr.dir);
      // Without a fragment: English.
      await help.goto(`${stack.host.url}/help.html`);
      expect(await help.evaluate(() => document.body.innerText)).toContain(translator('en').t('addin.fn.MIDVALUE' as MessageKey));
    } finally {
      await profile.close();
    }
  }, 120_000);
});

describe('the pane in English', () => {
  it('says what it said before the catalogue: budget lines, freeze, restore, offline', async () => {
    const { page, profile } = await openPane('en-US', 'en');
    try {
      await page.click('#estimate-refresh');
      await expect.poll(() => page.textContent('#message'), WAIT).toMatch(/^A refresh would make \d+ calls\.$/);
      const cells = IDS * 4 + 4 + SEGMENT_IDS.length;
      expect(await page.$$eval('#budget-lines dt', (dts) => dts.map((d) => d.textContent))).toEqual(['SVC cells', 'Distinct requests', 'Batch calls', 'Other calls', 'Time', 'Today\u2019s budget']);
      const values = await page.$$eval('#budget-lines dd', (dds) => dds.map((d) => d.textContent ?? ''));
      expect(values[0]).toBe(String(cells));
      expect(values[4]).toMatch(/^about \d+ s at starter's pace \(60 calls per minute\)$/);
      expect(values[5]).toMatch(/^\d+(\.\d)?% of the [\d,]+ calls left today$/);
      await clickFor(page, 'freeze', `Froze ${cells} SVC formulas to values; "SVC sources" lists ${cells} frozen cells.`);
      await clickFor(page, 'restore', `Restored ${cells} SVC formulas.`);
      await clickFor(page, 'restore', 'This workbook has no frozen SVC formulas to restore.');
      await profile.setOffline(true);
      await page.click('#status-refresh');
      await expect.poll(() => page.textContent('#status-problem'), WAIT).toBe('The add-in host cannot be reached. Check your network connection.');
      expect(await page.textContent('#status-service')).toBe('not connected');
      await clickFor(page, 'refresh-values', 'The add-in host cannot be reached. Check your network connection.');
    } finally {
      await profile.close();
    }
  }, 180_000);
});
