/**
 * The client PDF in German and Japanese (issue 36), read back with poppler and qpdf: headings and
 * page numbers in the language, no message key and no English catalogue phrase, the valuation
 * date and amounts as Intl formats them for the locale, /Lang the language, PDF/A-3a and PDF/UA-1.
 * (The pseudo-locale's test is its own file: pdf-language-pseudo.test.ts.)
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBrand } from '../../src/brand';
import type { Language } from '../../src/i18n';
import { writePdf } from '../../reports/writers/pdf';
import { makeReportData } from '../../fixtures/report-data';
import { EXAMPLE_BRAND, FIRM } from '../brand/brand-files';
import { pdfText, tempDir } from './tools';
import { readStructure, type PdfStructure } from './pdf-structure';
import { expectArchivalAndTagged } from './pdf-archival';
import { englishLeft, spaced, writtenIn, type WrittenPdf } from './pdf-language-tools';

describe.each([
  { language: 'de' as Language, currency: 'CHF', headings: ['Übersicht', 'Positionen', 'Wertentwicklung des Portfolios', 'Nicht bewertete Zeilen', 'Haftungsausschluss', 'Aufteilung nach Segment'.toUpperCase()], page: 'Seite 1 von' },
  { language: 'ja' as Language, currency: 'JPY', headings: ['概要', '保有資産', 'ポートフォリオのパフォーマンス', '評価できなかった行', '免責事項', '資産区分別配分'], page: 'ページ' },
])('client PDF in $language', ({ language, currency, headings, page }) => {
  let pdf: WrittenPdf;
  let structure: PdfStructure;
  beforeAll(async () => {
    pdf = await writtenIn(language, currency);
    structure = await readStructure(pdf.file);
  }, 180_000);

  it('has its headings and page numbers in the language, no message key and no English catalogue phrase', () => {
    for (const h of headings) expect(pdf.text).toContain(h);
    expect(pdf.text).toContain(page);
    expect(pdf.text).not.toMatch(/\b(pdf|common)\.[a-z_0-9]+\b/);
    expect(englishLeft(pdf)).toEqual([]);
  });

  it('prints the valuation date and the amounts as Intl formats them for the locale', () => {
    const { summary: s, cover: c } = pdf.data;
    const date = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC', calendar: 'gregory' }).format(new Date(`${c.as_of}T00:00:00Z`));
    const money = (v: number, digits: number) => new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
    expect(pdf.text).toContain(spaced(date));
    for (const amount of [money(s.current_value, 2), money(s.total_invested, 2), money(s.current_value, 0)]) expect(pdf.text).toContain(spaced(amount));
  });

  it('states its language as /Lang and stays PDF/A-3a and PDF/UA-1, its charts described in the language', () => {
    expectArchivalAndTagged(structure, language, { figureAlt: /\S.{20,}/ });
    const alts = structure.elements.filter((e) => e.type === 'Figure').map((f) => f.alt ?? '');
    expect(alts.length).toBeGreaterThan(1);
    for (const alt of alts) expect(alt).not.toMatch(/chart:/);
  });
});

describe('the firm\'s words in the client\'s language', () => {
  it('draws the brand\'s cover title, footer and disclosures in German, and warns naming the portfolio where the firm gave no German', async () => {
    const brand = loadBrand(EXAMPLE_BRAND);
    const localised: typeof brand.localised = {
      cover_title: { by: { en: 'Wealth report', de: 'Vermögensbericht' } },
      footer: { by: { en: 'Ashgrove & Vale, London' } },
      disclosures: { by: { en: 'Regulated in England.', de: 'In England beaufsichtigt.' } },
    };
    const base = makeReportData({ holdings: 3, previous: true });
    const file = path.join(tempDir('pdf-brand-de'), 'report-de.pdf');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      await writePdf({ ...base, language: 'de', brand: { ...brand, language: 'en', localised } }, file);
      // Node emits warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    const text = spaced(await pdfText(file));
    expect(text).toContain('Vermögensbericht');
    expect(text).not.toContain('Wealth report');
    expect(text).toContain('In England beaufsichtigt.');
    expect(text).not.toContain('Regulated in England.');
    expect(text).toContain(`Offenlegungen — ${FIRM}`);
    // No German footer: the firm's English one, said once on stderr with the portfolio's name.
    expect(text).toContain('Ashgrove & Vale, London');
    expect(warnings.filter((w) => w.includes(`Portfolio "${base.cover.portfolio_name}"`) && w.includes('footer') && w.includes('de'))).toHaveLength(1);
  }, 120_000);
});
