/** Shared by the PDF language tests (issue 36): a report written in a language and read back with pdftotext. */
import path from 'node:path';
import { AREAS } from '../../src/i18n/catalogues';
import type { Language } from '../../src/i18n';
import type { ReportData } from '../../reports/report-data';
import { writePdf } from '../../reports/writers/pdf';
import { makeReportData } from '../../fixtures/report-data';
import { pdfText, tempDir } from './tools';

/** One space for every run of white space, the no-break ones Intl puts in numbers and dates too. */
export const spaced = (t: string) => t.replace(/[\s\u00a0\u202f]+/g, ' ');

/**
 * The pdf catalogue's English as whole phrases: each message's text between its placeholders and
 * ICU syntax, where long enough to be a heading or sentence of ours rather than a unit.
 */
export function englishPhrases(): string[] {
  const phrases = new Set<string>();
  for (const text of Object.values(AREAS.pdf.en)) {
    for (const piece of text.split(/[{}#]|\b(?:plural|select|one|other|yes)\b/)) {
      const p = spaced(piece).trim();
      if (p.length >= 12 && /[a-z]{3}/.test(p)) phrases.add(p);
    }
  }
  return [...phrases];
}

export interface WrittenPdf {
  data: ReportData;
  file: string;
  text: string;
}

/** A client report of every section (history, benchmarks, projections, exit, errors) written in `language`. */
export async function writtenIn(language: Language, currency: string): Promise<WrittenPdf> {
  const base = makeReportData({ holdings: 12, errors: 2, previous: true, history: true, currency });
  const data: ReportData = { ...base, language };
  const file = path.join(tempDir(`pdf-${language}`), `report-${language}.pdf`);
  await writePdf(data, file);
  return { data, file, text: spaced(await pdfText(file)) };
}

/** Every text of the report data (its holdings may be a lazy iterable, which JSON.stringify leaves out). */
export const dataText = (data: ReportData): string => spaced(JSON.stringify({ ...data, holdings: [...data.holdings] }));

/**
 * English catalogue phrases in the PDF's text that the report data does not itself hold, in any
 * case (a name, or a note built in reports/build/ and set as a sentence, may say them).
 */
export function englishLeft(pdf: WrittenPdf): string[] {
  const data = dataText(pdf.data).toLowerCase();
  return englishPhrases().filter((p) => pdf.text.includes(p) && !data.includes(p.toLowerCase()));
}
