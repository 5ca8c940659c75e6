/**
 * The writers' insurance review (issue 37) on report data with a review of every status
 * (documents-data.ts), read back with pdftotext, qpdf and openpyxl: every item's figures and
 * status, the totals and the shortfall equal a computation made here from the report's valuations
 * and the cover given (documents-expected.ts); renewals within 60 days named, none later; since
 * when under-insured; PDF/A-3a and PDF/UA-1 with the section's three tables tagged; no PDF section
 * and no xlsx sheet without a review; a German report's section without English. The month-end
 * run on the shared fixture, and the xlsx formulas recomputed by LibreOffice: documents-run.test.ts.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/i18n/catalogues';
import type { ReportData } from '../../reports/report-data';
import { writePdf } from '../../reports/writers/pdf';
import { writeXlsx } from '../../reports/writers/xlsx';
import { readStructure, type PdfStructure } from '../report-writers/pdf-structure';
import { expectArchivalAndTagged } from '../report-writers/pdf-archival';
import { pdfText, tempDir } from '../report-writers/tools';
import { reportWithReview, type ReviewedReport } from './documents-data';
import { expectedReview, itemRow, plain, STATUSES, totalsLines, wholeMoney as money, type ExpectedReview } from './documents-expected';




const run = promisify(execFile);
const dir = tempDir('insurance-pdf');
const tables = (s: PdfStructure) => s.elements.filter((e) => e.type === 'Table').length;

function insuredOf(report: ReviewedReport) {
  return (h: { asset_id: string }) => report.inputs.find((i) => i.asset_id === h.asset_id)!.insured_value;
}

describe('PDF insurance review in English', () => {
  const report = reportWithReview('en');
  const data = report.data;
  let expected: ExpectedReview;
  let layout: string[];
  let text: string;
  let withReview: PdfStructure;
  let withoutReview: { text: string; structure: PdfStructure };

  beforeAll(async () => {
    expected = expectedReview(data.holdings, insuredOf(report));
    const file = path.join(dir, 'en.pdf');
    const bare = path.join(dir, 'en-without.pdf');
    const { insurance: _, ...without } = data;
    await Promise.all([writePdf(data, file), writePdf(without as ReportData, bare)]);
    [layout, text, withReview, withoutReview] = await Promise.all([
      pdfText(file, true).then((t) => t.split('\n').map(plain)),
      pdfText(file).then(plain),
      readStructure(file),
      Promise.all([pdfText(bare).then(plain), readStructure(bare)]).then(([t, structure]) => ({ text: t, structure })),
    ]);
  }, 180_000);

  it('prints every status, from under-insured to not insured', () => {
    for (const s of STATUSES) expect(expected.byStatus[s].count, s).toBeGreaterThan(0);
  });

  it("shows each item's insured value, mid, high, replacement value, gap and status on its row, as computed from the valuations and the cover", () => {
    for (const item of expected.items) expect(layout.filter((l) => itemRow(item).test(l)), item.asset_id).toHaveLength(1);
  });

  it('lists the items by shortfall, largest first', () => {
    const shortfall = (i: (typeof expected.items)[number]) => (i.status === 'under-insured' ? i.gap! : 0);
    const printed = expected.items.map((i) => ({ i, at: text.indexOf(i.asset_id, text.indexOf('Insurance review')) })).sort((a, b) => a.at - b.at);
    const shortfalls = printed.map((p) => shortfall(p.i));
    expect(shortfalls).toEqual([...shortfalls].sort((a, b) => b - a));
    expect(shortfalls[0]).toBeGreaterThan(0);
  });

  it('totals each status and states the total shortfall', () => {
    for (const line of totalsLines(expected)) expect(layout.some((l) => l.trim() === line), line).toBe(true);
    expect(text).toContain(`Total shortfall of the under-insured items: ${money(expected.shortfall)} (${expected.byStatus['under-insured'].count} items).`);
  });

  it('names the renewals within 60 days (insurer, policy, date) and no later one', () => {
    const asOf = Date.parse(`${data.cover.as_of}T00:00:00Z`);
    const days = (d: string) => (Date.parse(`${d}T00:00:00Z`) - asOf) / 86_400_000;
    const renewing = report.inputs.filter((i) => i.renewal_date);
    const soon = renewing.filter((i) => days(i.renewal_date!) <= 60);
    const later = renewing.filter((i) => days(i.renewal_date!) > 60);
    expect(soon.length).toBeGreaterThan(0);
    expect(later.length).toBeGreaterThan(0);
    const from = layout.findIndex((l) => l.includes('RENEWALS WITHIN 60 DAYS'));
    expect(from).toBeGreaterThan(0);
    const renewals = layout.slice(from);
    for (const i of soon) {
      const date = plain(new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${i.renewal_date}T00:00:00Z`)));
      const at = renewals.findIndex((l) => new RegExp(`^ ?${i.insurer} ${i.policy} .* ${date} ${money(i.insured_value!).replace('$', '\\$')}$`).test(l) && l.includes(i.description.slice(0, 12)));
      expect(at, `${i.insurer} ${i.policy} ${date}`).toBeGreaterThanOrEqual(0);
      // The asset id and "in N days" on the row's second line.
      expect(renewals[at + 1]).toMatch(new RegExp(`${i.asset_id} in ${days(i.renewal_date!)} days`));
    }
    for (const i of later) expect(text).not.toContain(i.policy!);
  });

  it('says since when an item has been under-insured, where the history knows it', () => {
    expect(text).toContain('since 30 Jun 2026');
  });

  it('comes after the holdings and before the projections', () => {
    const at = (s: string) => text.indexOf(s);
    expect(at('Holdings')).toBeGreaterThan(0);
    expect(at('Insurance review')).toBeGreaterThan(at('Holdings'));
    expect(at('Projections for the largest holdings')).toBeGreaterThan(at('Insurance review'));
  });

  it('stays PDF/A-3a and PDF/UA-1, its three tables tagged as tables with column headers', () => {
    expectArchivalAndTagged(withReview, 'en-GB');
    expect(tables(withReview)).toBe(tables(withoutReview.structure) + 3);
  });

  it('has no section, and no word of cover, in a report without a review', () => {
    expect(withoutReview.text).not.toMatch(/Insurance review|Insured value|insured|Replacement value|Renewals within/i);
  });

  it('has an Insurance sheet after Holdings in the workbook, and none without a review', async () => {
    const { insurance: _, ...without } = data;
    const [book, bare] = [path.join(dir, 'with.xlsx'), path.join(dir, 'without.xlsx')];
    await Promise.all([writeXlsx(data, book), writeXlsx(without as ReportData, bare)]);
    const sheets = async (file: string) => JSON.parse((await run('/usr/bin/python3', ['-c', 'import json, sys, openpyxl; print(json.dumps(openpyxl.load_workbook(sys.argv[1]).sheetnames))', file])).stdout) as string[];
    const [withSheets, withoutSheets] = await Promise.all([sheets(book), sheets(bare)]);
    expect(withSheets.indexOf('Insurance')).toBe(withSheets.indexOf('Holdings') + 1);
    expect(withoutSheets).not.toContain('Insurance');
    expect(withoutSheets.length).toBe(withSheets.length - 1);
  });
});

describe('PDF insurance review in German', () => {
  const report = reportWithReview('de');
  let section: string;
  let expected: ExpectedReview;

  beforeAll(async () => {
    expected = expectedReview(report.data.holdings, insuredOf(report));
    const file = path.join(dir, 'de.pdf');
    await writePdf(report.data, file);
    const text = plain(await pdfText(file));
    section = text.slice(text.indexOf('Versicherungsprüfung'), text.indexOf('Prognosen für die größten Positionen'));
  }, 180_000);

  it('has its words in German, its amounts as German writes them, and no English', () => {
    expect(section.length).toBeGreaterThan(500);
    for (const word of ['Unterversichert', 'Überversichert', 'Gedeckt', 'Nicht versichert', 'Wiederbeschaffungswert', 'Deckungslücke', 'in 30 Tagen']) expect(section).toContain(word);
    // Subheadings are set in capitals.
    for (const heading of ['Summen nach Deckungsstatus', 'Erneuerungen innerhalb von 60 Tagen']) expect(section).toContain(heading.toUpperCase());
    expect(section).toContain(money(expected.shortfall, 'de-DE'));
    // What the data itself says (names, ids, insurers, policies) is not ours to translate: left out before looking for English.
    let ours = section;
    for (const h of report.data.holdings) ours = ours.split(h.description).join(' ').split(h.asset_id).join(' ');
    for (const i of report.inputs) for (const v of [i.insurer, i.policy, i.serial]) if (v) ours = ours.split(v).join(' ');
    const english = Object.values(AREAS.insurance.en).flatMap((m) => m.split(/[{}#]|\b(?:plural|select|one|other|mid|high)\b/)).map((p) => plain(p).trim()).filter((p) => /[a-z]{3}/.test(p) && p.length >= 5);
    expect(english.filter((p) => ours.includes(p))).toEqual([]);
    expect(ours).not.toMatch(/\b(insured|Insured|Replacement|estimate|Gap|Covered|Holding|Items|shortfall|Renewals?|since|days|Total)\b/);
  });
});
