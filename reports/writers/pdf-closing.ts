/** The PDF's closing sections: rows not valued (capped at PDF_MAX_ERRORS), method notes, the disclaimer and the firm's disclosures. */
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { drawTable } from './pdf-table';
import { formatInteger } from './text-format';

/** The PDF lists at most this many errors and counts the rest (the xlsx and JSON have them all). */
export const PDF_MAX_ERRORS = 200;

export function drawErrorsAndNotes(p: PdfPages, data: ReportData): void {
  p.section('Rows not valued');
  if (data.errors.length === 0) p.paragraph('None: every input row was valued.', { colour: PALETTE.muted });
  else {
    // The first PDF_MAX_ERRORS, then a count: 100,000 bad rows must not make a 100,000-line PDF.
    const internal = data.cover.audience === 'internal';
    const shown = data.errors.slice(0, PDF_MAX_ERRORS);
    drawTable(
      p,
      [
        ...(internal ? [{ label: 'Portfolio', width: 90 }] : []),
        { label: 'Row', width: 36, align: 'right' },
        { label: 'Field', width: 90 },
        { label: 'Problem', width: p.width - 126 - (internal ? 90 : 0) },
      ],
      shown.map((e) => [...(internal ? [e.portfolio] : []), e.row === null ? '–' : String(e.row), e.field || '–', e.message]),
    );
    const rest = data.errors.length - shown.length;
    if (rest > 0) p.note(`…and ${formatInteger(rest)} more row${rest === 1 ? '' : 's'} not valued (${formatInteger(data.errors.length)} in all): the complete list is in the spreadsheet and JSON files of this report.`);
  }
  p.section('Method');
  for (const note of data.method_notes) p.paragraph(note);
  p.section('Disclaimer');
  p.paragraph(data.disclaimer, { size: 8.5 });
  drawDisclosures(p);
}

/** The firm's own disclosures (regulator, registered address, complaints), as it wrote them, after the valuation disclaimer. */
export function drawDisclosures(p: PdfPages): void {
  const brand = p.brand;
  if (!brand || brand.disclosures.length === 0) return;
  p.section(`Disclosures — ${brand.firmName}`);
  for (const paragraph of brand.disclosures) p.paragraph(paragraph, { size: 8.5 });
}
