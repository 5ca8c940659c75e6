/**
 * The broker's schedule as a PDF: a document of record like the reports (PDF/A-3a and PDF/UA-1
 * through PdfPages, the firm's brand, the house fonts), landscape: the cover letter, then the
 * items as one tagged table with the totals.
 */
import { createWriteStream } from 'node:fs';
import { writeAtomically } from '../writers/atomic-write';
import { PALETTE } from '../writers/palette';
import { PdfPages } from '../writers/pdf-layout';
import { drawTable, type PdfColumn } from '../writers/pdf-table';
import { drawDisclosures } from '../writers/pdf-closing';
import { documentLang } from '../writers/report-language';
import type { ScheduleData } from './schedule-data';
import { detailWords, insurerWords, letterParagraphs, scheduleTranslator, sourceWords, statusWords } from './schedule-words';

/** Writes the schedule; answers the warnings worth saying (a brand text missing in the client's language, glyphs missing). */
export async function writeSchedulePdf(data: ScheduleData, filePath: string): Promise<string[]> {
  const tr = scheduleTranslator(data);
  const insurer = insurerWords(tr, data);
  const title = tr.t('insurance.schedule_title');
  const warnings: string[] = [];
  const letter = letterParagraphs(tr, data, (w) => warnings.push(w));
  const p = new PdfPages(
    { title: `${data.portfolio} — ${insurer}`, subtitle: tr.t('common.valued_as_of', { date: tr.date(data.as_of) }), reference: data.reference, sandbox: data.sandbox, tr },
    { Title: tr.t('insurance.schedule_document_title', { portfolio: data.portfolio, insurer, date: data.as_of }), Author: data.brand?.firmName, Subject: title },
    { lang: documentLang(tr.lang), created: new Date(data.generated_at), brand: data.brand },
  );
  p.warnings.push(...warnings);
  p.addPage('landscape');
  p.section(`${title}: ${insurer}`, { level: 1 });
  p.paragraph(tr.t('insurance.schedule_intro', { portfolio: data.portfolio, client: data.client_name, insurer, date: tr.date(data.as_of), currency: data.currency }), { colour: PALETTE.muted, size: 8.5 });
  if (data.sandbox) p.paragraph(tr.t('insurance.schedule_sandbox'), { colour: PALETTE.negative, size: 8.5 });
  for (const paragraph of letter) p.paragraph(paragraph);
  const money = (v: number | null) => (v === null ? '–' : tr.money(v, data.currency, 0));
  const fixed = 30 + 84 + 84 + 76 + 74 + 64 + 130;
  const columns: PdfColumn[] = [
    { label: tr.t('insurance.schedule_item'), width: 30, align: 'right' },
    { label: tr.t('insurance.schedule_description'), width: p.width - fixed },
    { label: tr.t('insurance.schedule_insured'), width: 84, align: 'right' },
    { label: tr.t('insurance.schedule_proposed'), width: 84, align: 'right' },
    { label: tr.t('insurance.schedule_change'), width: 76, align: 'right' },
    { label: tr.t('insurance.status'), width: 74 },
    { label: tr.t('insurance.schedule_valued_on'), width: 64 },
    { label: tr.t('insurance.schedule_source'), width: 130 },
  ];
  drawTable(
    p,
    columns,
    data.items.map((i) => [
      String(i.item),
      { text: i.description, sub: [detailWords(tr, i), i.asset_id].filter(Boolean).join(' · ') },
      money(i.insured_value),
      money(i.proposed_value),
      { text: tr.money(i.change, data.currency, 0), colour: i.change > 0 ? PALETTE.negative : PALETTE.ink },
      statusWords(tr, i.status),
      tr.shortDate(i.valued_on),
      sourceWords(tr, data, i),
    ]),
    { totalRow: ['', tr.t('insurance.schedule_total', { count: data.items.length }), money(data.totals.insured_value), money(data.totals.proposed_value), tr.money(data.totals.change, data.currency, 0), '', '', ''] },
  );
  drawDisclosures(p, tr);
  await writeAtomically(filePath, (tempPath) => p.finish(createWriteStream(tempPath)));
  return p.warnings;
}
