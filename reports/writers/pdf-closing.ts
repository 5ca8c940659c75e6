/** The PDF's closing sections: rows not valued (capped at PDF_MAX_ERRORS), method notes, the disclaimer and the firm's disclosures. */
import { translator, type Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { drawTable } from './pdf-table';
import { reportTranslator } from './report-language';

/** The PDF lists at most this many errors and counts the rest (the xlsx and JSON have them all). */
export const PDF_MAX_ERRORS = 200;

export function drawErrorsAndNotes(p: PdfPages, data: ReportData): void {
  const tr = reportTranslator(data);
  p.section(tr.t('pdf.rows_not_valued'));
  if (data.errors.length === 0) p.paragraph(tr.t('pdf.all_valued'), { colour: PALETTE.muted });
  else {
    // The first PDF_MAX_ERRORS, then a count: 100,000 bad rows must not make a 100,000-line PDF.
    const internal = data.cover.audience === 'internal';
    const shown = data.errors.slice(0, PDF_MAX_ERRORS);
    drawTable(
      p,
      [
        ...(internal ? [{ label: tr.t('pdf.col_portfolio'), width: 90 }] : []),
        { label: tr.t('pdf.col_row'), width: 36, align: 'right' },
        { label: tr.t('pdf.col_field'), width: 90 },
        { label: tr.t('pdf.col_problem'), width: p.width - 126 - (internal ? 90 : 0) },
      ],
      shown.map((e) => [...(internal ? [e.portfolio] : []), e.row === null ? '–' : String(e.row), e.field || '–', e.message]),
    );
    const rest = data.errors.length - shown.length;
    if (rest > 0) p.note(tr.t('pdf.more_errors', { rest, all: tr.number(data.errors.length) }));
  }
  p.section(tr.t('pdf.method'));
  for (const note of data.method_notes) p.paragraph(note);
  p.section(tr.t('pdf.disclaimer'));
  p.paragraph(data.disclaimer, { size: 8.5 });
  drawDisclosures(p, tr);
}

/** The firm's own disclosures (regulator, registered address, complaints), as it wrote them, after the valuation disclaimer. */
export function drawDisclosures(p: PdfPages, tr: Translator = translator('en')): void {
  const brand = p.brand;
  if (!brand || brand.disclosures.length === 0) return;
  p.section(tr.t('pdf.disclosures', { firm: brand.firmName }));
  for (const paragraph of brand.disclosures) p.paragraph(paragraph, { size: 8.5 });
}
