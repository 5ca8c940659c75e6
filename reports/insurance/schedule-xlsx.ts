/**
 * The broker's schedule as a workbook (the house's XlsxBook: print setup, brand, document
 * properties): a Schedule sheet with one row per item as real numbers and dates, an Excel table
 * over them and the totals under it; a Letter sheet with the cover letter.
 */
import { brandedBookMeta } from '../writers/xlsx-brand';
import { writeXlsxBook } from '../writers/xlsx-book';
import { NOTE_STYLE, SANDBOX_STYLE, TOTAL_LABEL_STYLE } from '../writers/xlsx-styles';
import type { ScheduleData } from './schedule-data';
import { detailWords, insurerWords, letterParagraphs, scheduleTranslator, sourceWords, statusWords } from './schedule-words';

export async function writeScheduleXlsx(data: ScheduleData, filePath: string): Promise<string[]> {
  const tr = scheduleTranslator(data);
  const insurer = insurerWords(tr, data);
  const warnings: string[] = [];
  const letter = letterParagraphs(tr, data, (w) => warnings.push(w));
  const meta = brandedBookMeta(
    {
      reference: data.reference,
      sandbox: data.sandbox,
      currency: data.currency,
      creator: 'svc-report',
      created: new Date(data.generated_at),
      title: tr.t('insurance.schedule_document_title', { portfolio: data.portfolio, insurer, date: data.as_of }),
      subject: tr.t('insurance.schedule_title'),
      headerLeft: `${data.portfolio} — ${insurer}`,
      headerRight: tr.t('common.valued_as_of', { date: tr.date(data.as_of) }),
      tr,
    },
    data.brand,
  );
  await writeXlsxBook(filePath, meta, async (book) => {
    const name = tr.t('insurance.schedule_sheet');
    const sheet = book.sheet(name, [7, 40, 34, 18, 18, 16, 16, 14, 26, 24, 28, 14, 16], true, true);
    book.header(sheet, [
      tr.t('insurance.schedule_item'),
      tr.t('insurance.schedule_description'),
      tr.t('insurance.schedule_details'),
      tr.t('columns.asset_id'),
      tr.t('insurance.schedule_insured'),
      tr.t('insurance.schedule_proposed'),
      tr.t('insurance.schedule_change'),
      tr.t('insurance.status'),
      tr.t('insurance.schedule_valued_on'),
      tr.t('insurance.schedule_source'),
      tr.t('insurance.policy'),
      tr.t('insurance.renewal_date'),
      tr.t('insurance.replacement_value'),
    ]);
    for (const i of data.items) {
      sheet.add([
        { value: i.item, kind: 'int' },
        { value: i.description },
        { value: detailWords(tr, i) },
        { value: i.asset_id },
        { value: i.insured_value, kind: 'money' },
        { value: i.proposed_value, kind: 'money' },
        { value: i.change, kind: 'money' },
        { value: statusWords(tr, i.status) },
        { value: i.valued_on, kind: 'date' },
        { value: sourceWords(tr, data, i) },
        { value: i.policy },
        { value: i.renewal_date, kind: 'date' },
        { value: i.replacement_value, kind: 'money' },
      ]);
    }
    book.table(sheet, name, 'InsuranceSchedule');
    sheet.add([
      null,
      { value: tr.t('insurance.schedule_total', { count: data.items.length }), style: TOTAL_LABEL_STYLE },
      null,
      null,
      { value: data.totals.insured_value, kind: 'money' },
      { value: data.totals.proposed_value, kind: 'money' },
      { value: data.totals.change, kind: 'money' },
    ]);
    sheet.sheet.commit();

    const notes = book.sheet(tr.t('insurance.schedule_letter_sheet'), [110], false);
    notes.add([{ value: `${tr.t('insurance.schedule_title')}: ${insurer}`, style: book.look.section }]);
    if (data.sandbox) notes.add([{ value: tr.t('insurance.schedule_sandbox'), style: SANDBOX_STYLE }]);
    notes.paragraph(tr.t('insurance.schedule_intro', { portfolio: data.portfolio, client: data.client_name, insurer, date: tr.date(data.as_of), currency: data.currency }), 'A', NOTE_STYLE);
    for (const paragraph of letter) notes.paragraph(paragraph, 'A', NOTE_STYLE);
    for (const d of data.brand?.disclosures ?? []) notes.paragraph(d, 'A', NOTE_STYLE);
    notes.sheet.commit();
  });
  return warnings;
}
