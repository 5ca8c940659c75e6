/**
 * The report as a web page (issue 38), read back with Python's html.parser (read-page.py): every
 * section, the JSON report's figures as the translator formats them, hostile names as text, no
 * resource outside the file, a CSP whose hashes are the inline style's and script's, lang/dir,
 * the size of a 50-holding page, and fonts that carry only the page's characters.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { translator, type Language } from '../../src/i18n';
import { PERIOD_KEYS, type Holding, type ReportData } from '../../reports/report-data';
import { writeReport } from '../../reports/writers';
import { periodLabel } from '../../reports/writers/history-labels';
import { makeReportData } from '../../fixtures/report-data';
import { reportWithReview } from '../insurance/documents-data';
import { tempDir } from '../report-writers/tools';
import { attributesOf, cellUnder, readPage, type ReadPage } from './page-reader';

const HOSTILE = '<img src=x onerror=alert(1)>"\'&';

/** A 50-holding report with a history, rows not valued and hostile text wherever the input reaches the page. */
function hostileReport(language?: Language): ReportData {
  const base = makeReportData({ holdings: 50, history: true, errors: 3, previous: true, sandbox: true, portfolioName: `Fonds ${HOSTILE}` });
  const holdings = [...(base.holdings as Holding[])].map((h, i) => (i === 0 ? { ...h, description: `Watch ${HOSTILE}` } : h));
  return {
    ...base,
    language,
    holdings,
    cover: { ...base.cover, client_name: `Client ${HOSTILE}`, prepared_by: `Adviser ${HOSTILE}` },
    allocation: base.allocation.map((a, i) => (i === 0 ? { ...a, segment_name: `Segment ${HOSTILE}` } : a)),
    errors: base.errors.map((e, i) => (i === 0 ? { ...e, message: `Bad row ${HOSTILE}` } : e)),
    method_notes: [...base.method_notes, `Note ${HOSTILE}`],
  };
}

const files: Record<string, { html: string; json?: string; data: ReportData }> = {};
const pages: Record<string, ReadPage> = {};

beforeAll(async () => {
  const runs: [string, ReportData][] = [['en', hostileReport()], ['de', hostileReport('de')], ['ar', hostileReport('ar')], ['ja', hostileReport('ja')]];
  for (const [key, data] of runs) {
    const written = await writeReport(data, tempDir(`html-${key}`), key === 'en' ? ['json', 'html'] : ['html']);
    files[key] = { html: written.find((w) => w.format === 'html')!.path, json: written.find((w) => w.format === 'json')?.path, data };
    pages[key] = await readPage(files[key]!.html);
  }
}, 240_000);

describe('the report page', () => {
  it('is an HTML5 document with every section of the PDF, one h1 and headings in order', () => {
    const page = pages.en!;
    const tr = translator('en');
    expect(page.doctype?.toLowerCase()).toBe('doctype html');
    const h2 = page.headings.filter(([tag]) => tag === 'h2').map(([, text]) => text);
    expect(h2).toEqual(
      ['pdf.summary', 'pdf.portfolio_performance', 'pdf.market_title', 'common.holdings', 'pdf.projections', 'pdf.exit_analysis', 'pdf.rows_not_valued', 'pdf.method', 'pdf.disclaimer'].map((k) => tr.t(k as never)),
    );
    expect(page.headings.filter(([tag]) => tag === 'h1')).toHaveLength(1);
    // No level skipped: an h3 only after an h2, never an h2 before the h1.
    const levels = page.headings.map(([tag]) => Number(tag.slice(1)));
    for (let i = 1; i < levels.length; i++) expect(levels[i]! - levels[i - 1]!).toBeLessThanOrEqual(1);
    for (const sub of ['pdf.value_over_time', 'pdf.periods_heading', 'pdf.realised_gains', 'pdf.transactions', 'pdf.allocation']) expect(page.headings.map(([, t]) => t)).toContain(tr.t(sub as never));
    // Landmarks, the skip link to main, the sandbox banner.
    const tags = page.elements.map((e) => e.tag);
    for (const landmark of ['header', 'nav', 'main', 'footer']) expect(tags).toContain(landmark);
    expect(attributesOf(page)).toContainEqual(['a', 'href', '#main']);
    expect(page.text).toContain(tr.t('pdf.sandbox_title'));
  });

  it("shows the JSON report's total, each holding's value and each period's return as the translator formats them", () => {
    const page = pages.en!;
    const tr = translator('en');
    const json = JSON.parse(readFileSync(files.en!.json!, 'utf8'));
    const cur = json.currency as string;
    const holdings = page.tables.find((t) => t.id === 'holdings')!;
    const valueLabel = tr.t('pdf.col_value_range');
    expect(holdings.rows).toHaveLength(json.holdings.length);
    json.holdings.forEach((h: { current_value: number; description: string }, i: number) => {
      const cell = cellUnder(holdings.rows[i]!, valueLabel)!;
      expect(cell.text.startsWith(tr.money(h.current_value, cur, 0)), `row ${i}`).toBe(true);
      expect(Number(cell.attrs['data-value'])).toBe(h.current_value);
    });
    expect(cellUnder(holdings.foot[0]!, valueLabel)!.text).toBe(tr.money(json.summary.current_value, cur, 0));
    expect(page.text).toContain(tr.money(json.summary.current_value, cur));
    const periods = page.tables.find((t) => t.caption === tr.t('pdf.periods_heading'))!;
    let checked = 0;
    for (const key of PERIOD_KEYS) {
      const p = json.performance.periods[key];
      if (!p || p.twr_percent === null) continue;
      const row = periods.rows.find((r) => r[0]!.text === periodLabel(key, tr))!;
      for (const [column, value] of [['pdf.col_time_weighted', p.twr_percent], ['pdf.col_money_weighted', p.mwr_percent]] as const) {
        if (value === null) continue;
        const cell = cellUnder(row, tr.t(column))!;
        expect(cell.text, `${key} ${column}`).toContain(tr.percent(value, { signed: true }));
        expect(Number(cell.attrs['data-value'])).toBe(value);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(2);
  });

  it('keeps hostile input as text: no element or attribute is made of it', () => {
    for (const key of ['en', 'de', 'ar']) {
      const page = pages[key]!;
      expect(page.elements.filter((e) => e.tag === 'img')).toEqual([]);
      expect(attributesOf(page).filter(([, name]) => name.startsWith('on'))).toEqual([]);
      for (const where of ['Watch', 'Client', 'Adviser', 'Segment', 'Bad row', 'Note']) expect(page.text, `${key} ${where}`).toContain(`${where} ${HOSTILE}`);
    }
  });

  it('refers to nothing outside the file, and its CSP allows exactly its inline style and script', () => {
    const page = pages.en!;
    const raw = readFileSync(files.en!.html, 'utf8');
    for (const [, name, value] of attributesOf(page)) if (['src', 'href', 'action', 'srcset', 'xlink:href', 'poster', 'data'].includes(name)) expect(value, name).toMatch(/^(#|data:)/);
    expect(page.style.join('')).not.toMatch(/url\((?!data:)/);
    expect(raw).not.toMatch(/https?:|(?:src|href)=["']?\/\//i);
    const csp = page.elements.find((e) => e.tag === 'meta' && e.attrs.some(([n, v]) => n === 'http-equiv' && v === 'Content-Security-Policy'))!;
    const policy = Object.fromEntries(csp.attrs)['content']!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    expect(page.style).toHaveLength(1);
    expect(page.script).toHaveLength(1);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`style-src ${hash(page.style[0]!)}`);
    expect(policy).toContain(`script-src ${hash(page.script[0]!)}`);
    expect(policy).toContain('img-src data:');
    expect(policy).toContain('font-src data:');
  });

  it('says its language and direction: de left to right, ar right to left', () => {
    expect([pages.en!.lang, pages.en!.dir]).toEqual(['en-GB', 'ltr']);
    expect([pages.de!.lang, pages.de!.dir]).toEqual(['de', 'ltr']);
    expect([pages.ar!.lang, pages.ar!.dir]).toEqual(['ar', 'rtl']);
    expect(pages.de!.headings.map(([, t]) => t)).toContain(translator('de').t('pdf.summary'));
  });

  it('stays under 400 KB for 50 holdings, in English and in Japanese (its script font included)', () => {
    expect(statSync(files.en!.html).size).toBeLessThan(400 * 1024);
    expect(statSync(files.ja!.html).size).toBeLessThan(400 * 1024);
  });

  it("inlines fonts that hold only the page's characters", () => {
    for (const key of ['en', 'ja']) {
      const page = pages[key]!;
      const used = new Set([...page.text, ...attributesOf(page).flatMap(([, , v]) => [...v])].map((c) => c.codePointAt(0)!));
      const faces = [...page.style[0]!.matchAll(/url\(data:font\/woff2;base64,([A-Za-z0-9+/=]+)\)/g)].map((m) => fontkit.create(Buffer.from(m[1]!, 'base64')) as fontkit.Font);
      expect(faces.length).toBe(key === 'ja' ? 6 : 4);
      for (const font of faces) {
        // 0xFFFF is the cmap's mandatory last segment, not a character.
        const extra = font.characterSet.filter((c) => !used.has(c) && c !== 0xffff);
        expect(extra, `${key} ${font.familyName}`).toEqual([]);
        // DejaVu has thousands of glyphs, Noto Sans JP tens of thousands: a subset has a few hundred.
        expect(font.numGlyphs).toBeLessThan(key === 'ja' ? 1500 : 400);
      }
    }
  });

  it('writes the insurance review when the report has one', async () => {
    const { data } = reportWithReview('en');
    const [file] = await writeReport(data, tempDir('html-insurance'), ['html']);
    const page = await readPage(file!.path);
    const tr = translator('en');
    expect(page.headings.map(([, t]) => t)).toContain(tr.t('insurance.title'));
    expect(page.tables.find((t) => t.caption === tr.t('insurance.title'))!.rows).toHaveLength(data.insurance!.items.length);
  });
});
