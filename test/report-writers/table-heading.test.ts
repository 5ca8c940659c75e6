/**
 * A table's heading is never left alone at the foot of a page (issue 34: "TRANSACTIONS THIS
 * PERIOD" at the bottom of a page, its table on the next). Laid out at every height near a page's
 * foot, 2 pt apart: the page the heading is drawn on is the page the table's first row is drawn on.
 */
import { describe, expect, it } from 'vitest';
import { PdfPages } from '../../reports/writers/pdf-layout';
import { drawTable, type PdfRow } from '../../reports/writers/pdf-table';

/** Where each thing landed: the page number when the heading was drawn and when the first row's text was. */
function layOut(spaceLeft: number, draw: (p: PdfPages, rows: PdfRow[]) => void): { heading: number; firstRow: number } {
  const p = new PdfPages({ title: 't', subtitle: 's', reference: 'r', sandbox: false, illustrativeRates: false }, { Title: 't' }, { lang: 'en-GB', created: new Date('2026-10-31T00:00:00Z'), plain: true });
  p.addPage();
  p.doc.y = p.bottom - spaceLeft;
  let page = 1;
  const seen = { heading: 0, firstRow: 0 };
  const next = p.continuePage.bind(p);
  p.continuePage = () => {
    page++;
    next();
  };
  const text = p.doc.text.bind(p.doc);
  p.doc.text = ((s: string, ...rest: unknown[]) => {
    if (s === 'TRANSACTIONS THIS PERIOD') seen.heading = page;
    if (s === '3 October 2026') seen.firstRow = page;
    return (text as (...a: unknown[]) => PDFKit.PDFDocument)(s, ...rest);
  }) as typeof p.doc.text;
  // A first row two lines tall (a note beneath the asset), as the transactions table has.
  draw(p, [['3 October 2026', 'Purchase', { text: 'Patek Philippe Calatrava 5227G (2021)', sub: 'bought at auction, buyer\'s premium included' }, '1', '$31,500.00']]);
  return seen;
}

const COLUMNS = [
  { label: 'Date', width: 80 },
  { label: 'Type', width: 70 },
  { label: 'Asset', width: 189 },
  { label: 'Quantity', width: 60, align: 'right' as const },
  { label: 'Amount', width: 100, align: 'right' as const },
];

describe('a table heading keeps its header and first row', () => {
  it('drawn by the table: on one page with its first row, wherever the page ends', () => {
    for (let left = 20; left <= 160; left += 2) {
      const at = layOut(left, (p, rows) => drawTable(p, COLUMNS, rows, { heading: 'Transactions this period' }));
      expect(at.heading, `${left} pt left`).toBeGreaterThan(0);
      expect(at.firstRow, `${left} pt left`).toBe(at.heading);
    }
  });

  it('(the layout it replaces, a heading drawn before the table, left it alone at some heights)', () => {
    const alone = [];
    for (let left = 20; left <= 160; left += 2) {
      const at = layOut(left, (p, rows) => {
        p.subheading('Transactions this period');
        drawTable(p, COLUMNS, rows);
      });
      if (at.firstRow !== at.heading) alone.push(left);
    }
    expect(alone.length).toBeGreaterThan(0);
  });
});
