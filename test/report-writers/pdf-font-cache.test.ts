/**
 * Two client PDFs in one process (issue 36): an en-XA report first, then a German and an Arabic
 * one, each read back with pdftotext. The fonts are parsed once per process; subsetting the
 * pseudo-locale's accented letters (composite glyphs) once left their base letters cached without
 * code points, and the next report's "Übersicht" read back as "Übe icht". Its own file: the font
 * cache must start empty, with the en-XA report first.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { translator, type Language, type MessageKey } from '../../src/i18n';
import { writePdf } from '../../reports/writers/pdf';
import { makeReportData } from '../../fixtures/report-data';
import { pdfText, tempDir } from './tools';
import { spaced } from './pdf-language-tools';

const HEADINGS: MessageKey[] = ['pdf.summary', 'pdf.card_current_value', 'pdf.card_total_invested', 'pdf.allocation', 'pdf.disclaimer'];
const withoutBidiControls = (s: string) => s.replace(/[\u202a-\u202e\u2066-\u2069]/g, '');

describe('the font cache after an en-XA PDF in the same process', () => {
  const texts = new Map<Language, string>();
  beforeAll(async () => {
    const dir = tempDir('font-cache');
    const base = makeReportData({ holdings: 3, errors: 0, previous: false, history: false, currency: 'EUR' });
    // In this order: the pseudo-locale's report leaves the glyph cache as the next ones find it.
    for (const language of ['en-XA', 'de', 'ar'] as Language[]) {
      const file = path.join(dir, `report-${language}.pdf`);
      await writePdf({ ...base, language }, file);
      texts.set(language, spaced(withoutBidiControls(await pdfText(file))));
    }
  }, 300_000);

  it('reads the pseudo-locale report back accented', () => {
    expect(texts.get('en-XA')).toContain(spaced(translator('en-XA').t('pdf.summary')));
  });

  it.each(['de', 'ar'] as Language[])('reads every heading of the %s report written after it back exactly', (language) => {
    const tr = translator(language);
    const text = texts.get(language)!;
    // The data's Latin words too (the pseudo-locale's accented letters are built on them).
    expect(text).toContain('Eleanor Whitcombe');
    expect(text).toContain('Whitcombe Family Collection');
    for (const key of HEADINGS) {
      const heading = spaced(tr.t(key));
      // Card labels are drawn in capitals.
      expect(text.includes(heading) || text.includes(heading.toLocaleUpperCase(language)), `${key}: ${heading}`).toBe(true);
    }
  });
});
