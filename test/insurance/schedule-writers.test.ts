/**
 * The broker's schedule below the command (issue 37): rounding up to the firm's step, one
 * schedule per insurer from the review's items, file names safe for any insurer's name, and the
 * xlsx and PDF read back with independent readers (openpyxl; pdftotext and qpdf for PDF/A-3a and
 * PDF/UA-1), with the firm's cover letter in the client's language.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBrand } from '../../src/brand';
import { insuranceReview, type ReviewInput } from '../../src/insurance';
import { roundUp, schedulesOf, type ScheduleContext } from '../../reports/insurance/schedule-data';
import { scheduleStem } from '../../reports/insurance/schedule-command';
import { writeSchedulePdf } from '../../reports/insurance/schedule-pdf';
import { writeScheduleXlsx } from '../../reports/insurance/schedule-xlsx';
import { pathInside } from '../../reports/writers/safe-path';
import { readStructure } from '../report-writers/pdf-structure';
import { expectArchivalAndTagged } from '../report-writers/pdf-archival';
import { folded, pdfText, tempDir } from '../report-writers/tools';

const AS_OF = '2026-09-30';

const inputs: (ReviewInput & { segment: string })[] = [
  { asset_id: 'SVC-WAT-ROLEX-126610LN-2021', description: 'Rolex Submariner Date 126610LN (2021)', segment: 'watches', mid: 15164.83, high: 15999.8, insured_value: 14000, insurer: 'Hiscox', policy: 'HX-44120', renewal_date: '2027-03-31', serial: '7Z41K902' },
  { asset_id: 'SVC-WAT-PATEK-5711-2018', description: 'Patek Philippe Nautilus 5711/1A-010 (2018)', segment: 'watches', mid: 123839.22, high: 130657.73, insured_value: 95000, insurer: 'Hiscox', policy: 'HX-44120', renewal_date: '2026-10-30', serial: '5711-3920118' },
  { asset_id: 'SVC-BAG-HERMES-BIRKIN-2015', description: 'Hermès Birkin 25 Himalaya (2015)', segment: 'bags', mid: 201390.31, high: 217491.88, insured_value: 300000, insurer: 'Chubb', policy: 'CH-901-77', renewal_date: '2027-05-31', serial: 'HIM-2015-044' },
  { asset_id: 'SVC-ART-LICHTENSTEIN-1990', description: 'Roy Lichtenstein, Reflections on Brushstrokes (1990)', segment: 'art', mid: 112586.61, high: 122463.05, insured_value: null },
];

const review = insuranceReview(inputs, { basis: 'high', tolerance: 0.1, overInsuredFactor: 1.25, renewalWindowDays: 60, asOf: AS_OF });

function context(over: Partial<ScheduleContext> = {}): ScheduleContext {
  return {
    portfolio: 'Ashcombe Collection',
    clientName: 'Ashcombe Family',
    asOf: AS_OF,
    generatedAt: '2026-09-30T18:00:00.000Z',
    currency: 'USD',
    round: 500,
    sandbox: true,
    language: 'en',
    reference: 'RPT-ASHCOMBE-2026-09-30',
    holdings: inputs.map((i, k) => ({ row: k + 2, asset_id: i.asset_id, segment: i.segment })),
    sourceOf: (id) => (id.startsWith('SVC-WAT') ? 'month-end' : 'service'),
    ...over,
  };
}

function openpyxlRows(file: string, sheet: number): unknown[][] {
  const script = 'import json, sys, openpyxl, datetime\nwb = openpyxl.load_workbook(sys.argv[1])\nws = wb.worksheets[int(sys.argv[2])]\nprint(json.dumps([[c.isoformat()[:10] if isinstance(c, datetime.datetime) else c for c in r] for r in ws.iter_rows(values_only=True)]))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file, String(sheet)], { encoding: 'utf8' })) as unknown[][];
}

describe('rounding up to the step', () => {
  it('rounds every amount UP to a multiple of the step, an exact multiple stays, conversion noise does not add a step', () => {
    expect(roundUp(15999.8, 500)).toBe(16000);
    expect(roundUp(16000, 500)).toBe(16000);
    expect(roundUp(16000.01, 500)).toBe(16500);
    expect(roundUp(12500.000000001, 500)).toBe(12500);
    expect(roundUp(130657.73, 1000)).toBe(131000);
    expect(roundUp(0.3, 0.25)).toBe(0.5);
    expect(roundUp(217491.88, 1)).toBe(217492);
  });
});

describe('schedules from the review', () => {
  it('one schedule per insurer (the uninsured last), the review\'s figures with the proposed value rounded up and the change from today\'s cover', () => {
    const schedules = schedulesOf(review, context());
    expect(schedules.map((s) => s.insurer)).toEqual(['Chubb', 'Hiscox', null]);
    for (const s of schedules) {
      for (const item of s.items) {
        const reviewed = review.items.find((i) => i.asset_id === item.asset_id)!;
        expect(item.insured_value).toBe(reviewed.insured_value);
        expect(item.replacement_value).toBe(reviewed.replacement_value);
        expect(item.status).toBe(reviewed.status);
        expect(item.proposed_value % 500).toBe(0);
        expect(item.proposed_value).toBeGreaterThanOrEqual(reviewed.replacement_value);
        expect(item.proposed_value - reviewed.replacement_value).toBeLessThan(500);
        expect(item.change).toBeCloseTo(item.proposed_value - (reviewed.insured_value ?? 0), 2);
      }
      expect(s.totals.proposed_value).toBeCloseTo(s.items.reduce((n, i) => n + i.proposed_value, 0), 2);
    }
    const hiscox = schedules[1]!;
    // The review's order: the largest shortfall first.
    expect(hiscox.items.map((i) => i.asset_id)).toEqual(['SVC-WAT-PATEK-5711-2018', 'SVC-WAT-ROLEX-126610LN-2021']);
    expect(hiscox.items[0]).toMatchObject({ item: 1, proposed_value: 131000, change: 36000, segment: 'watches', serial: '5711-3920118', source: 'month-end' });
  });

  it('--insurer keeps only that insurer\'s items; --round 1000 rounds to thousands', () => {
    const only = schedulesOf(review, context({ round: 1000 }), 'Chubb');
    expect(only).toHaveLength(1);
    expect(only[0]!.items.map((i) => [i.asset_id, i.proposed_value])).toEqual([['SVC-BAG-HERMES-BIRKIN-2015', 218000]]);
    expect(schedulesOf(review, context(), 'Allianz')).toEqual([]);
  });

  it('file names stay inside the folder whatever the insurer is called', () => {
    const dir = tempDir('schedule-names');
    const hostile = ['../../etc/passwd', 'AXA/XL', '..', '.', 'Lloyd\'s\u0000\n\u202e', 'Versicherung München', '山田保険', 'x'.repeat(400), ''];
    const stems = hostile.map((insurer) => scheduleStem({ portfolio: '../Ashcombe', insurer, as_of: AS_OF }));
    for (const stem of stems) {
      const full = pathInside(dir, `${stem}.pdf`);
      expect(path.dirname(full)).toBe(dir);
      expect(stem).not.toMatch(/[/\\\u0000\n]|\.\./);
      expect(Buffer.byteLength(stem)).toBeLessThan(255 - 5);
    }
    expect(stems[0]).toBe('ashcombe-insurance-by-etc-passwd-2026-09-30');
    expect(stems[6]).toContain('山田保険');
    expect(scheduleStem({ portfolio: 'Ashcombe', insurer: null, as_of: AS_OF })).toBe('ashcombe-insurance-not-insured-2026-09-30');
  });
});

describe('the written schedule', () => {
  it('xlsx (openpyxl) and PDF (pdftotext, PDF/A-3a and PDF/UA-1) say the same items, rounded, in the house look without a brand', async () => {
    const dir = tempDir('schedule-files');
    const hiscox = schedulesOf(review, context())[1]!;
    const xlsx = path.join(dir, `${scheduleStem(hiscox)}.xlsx`);
    const pdf = path.join(dir, `${scheduleStem(hiscox)}.pdf`);
    await writeScheduleXlsx(hiscox, xlsx);
    await writeSchedulePdf(hiscox, pdf);
    expect(readdirSync(dir).sort()).toEqual([path.basename(pdf), path.basename(xlsx)].sort());

    const [header, ...rows] = openpyxlRows(xlsx, 0);
    expect(header!.slice(0, 7)).toEqual(['Item', 'Description', 'Segment, serial and policy', 'Asset id', 'Current insured value', 'Proposed value', 'Change']);
    const items = rows.slice(0, hiscox.items.length);
    expect(items.map((r) => [r[0], r[3], r[4], r[5], r[6], r[8]])).toEqual(hiscox.items.map((i) => [i.item, i.asset_id, i.insured_value, i.proposed_value, i.change, AS_OF]));
    expect(items[0]![2]).toBe('Luxury Watches · Serial number 5711-3920118 · Policy HX-44120');
    const total = rows[hiscox.items.length]!;
    expect(total.slice(4, 7)).toEqual([hiscox.totals.insured_value, hiscox.totals.proposed_value, hiscox.totals.change]);
    const letter = openpyxlRows(xlsx, 1).map((r) => String(r[0] ?? '')).join('\n');
    expect(letter).toContain('Sandbox data');
    expect(letter).toContain('rounded up to the next $500');

    expectArchivalAndTagged(await readStructure(pdf), 'en-GB', { minTaggedText: 20 });
    const text = folded(await pdfText(pdf));
    expect(text).toContain('Insurance schedule: Hiscox');
    expect(text).toContain('Patek Philippe Nautilus 5711/1A-010 (2018)');
    expect(text).toContain('$131,000');
    expect(text).toContain('$36,000');
    expect(text).toContain('Month-end valuation (sandbox)');
    expect(text).toMatch(/Total \(2 items\)/);
  }, 120_000);

  it('the firm\'s insurance_letter in the client\'s language, its brand on a German schedule', async () => {
    const dir = tempDir('schedule-brand');
    const brandFile = path.join(dir, 'brand.json');
    writeFileSync(
      brandFile,
      JSON.stringify({
        firm_name: 'Ashgrove & Vale',
        primary_colour: '#1f2a44',
        insurance_letter: { en: 'Dear broker, please renew at the proposed values.', de: 'Sehr geehrte Damen und Herren, bitte erneuern Sie die Police zu den vorgeschlagenen Werten.\n\nMit freundlichen Grüssen' },
      }),
    );
    const brand = loadBrand(brandFile);
    const chubb = schedulesOf(review, context({ language: 'de', brand, sandbox: false }), 'Chubb')[0]!;
    const pdf = path.join(dir, 'chubb.pdf');
    const xlsx = path.join(dir, 'chubb.xlsx');
    expect(await writeSchedulePdf(chubb, pdf)).toEqual([]);
    await writeScheduleXlsx(chubb, xlsx);
    expectArchivalAndTagged(await readStructure(pdf), 'de', { minTaggedText: 20 });
    const text = folded(await pdfText(pdf));
    expect(text).toContain('Sehr geehrte Damen und Herren, bitte erneuern Sie die Police zu den vorgeschlagenen Werten.');
    expect(text).toContain('Mit freundlichen Grüssen');
    expect(text).not.toContain('Dear broker');
    expect(text).toContain('Versicherungsverzeichnis: Chubb');
    expect(text).toContain('Überversichert');
    expect(text).not.toContain('Sandbox');
    const letter = openpyxlRows(xlsx, 1).map((r) => String(r[0] ?? '')).join('\n');
    expect(letter).toContain('Sehr geehrte Damen und Herren');
    // A language the firm gave no letter in: its own language's, with a warning naming the portfolio.
    const warnings = await writeSchedulePdf({ ...chubb, language: 'ja' }, path.join(dir, 'chubb-ja.pdf'));
    expect(warnings.join('\n')).toMatch(/Ashcombe Collection.*insurance_letter.*ja/);
  }, 120_000);
});
