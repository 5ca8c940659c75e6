/**
 * The language of each portfolio's client documents (issue 36), from the `language` column of
 * its holdings and transactions files: any row may give it, every row that does must agree. A tag
 * outside the supported ones, or two languages for one portfolio, stops the run (InputError,
 * exit 2) before any call is spent, naming the rows.
 */
import { asLanguage, supportedLanguages, type Language } from '../i18n/languages';
import { cellText } from './cells';
import { InputError, type RawRecord, type SourceRef } from './types';
import { printable } from '../printable';

const where = (s: SourceRef) => `${s.file}${s.sheet ? ` (sheet ${s.sheet})` : ''} row ${s.row}`;

export class PortfolioLanguages {
  private readonly seen = new Map<string, { language: Language; source: SourceRef }>();

  /** Reads a row's language cell for its portfolio; an empty cell says nothing. */
  note(record: RawRecord, portfolio: string): void {
    const text = cellText(record.values.language)?.trim();
    if (text === undefined || text === '') return;
    const language = asLanguage(text);
    if (!language) {
      const shown = printable(text.length > 40 ? `${text.slice(0, 40)}…` : text);
      throw new InputError(`${where(record.source)}, language: "${shown}" is not a supported language; use one of ${supportedLanguages()}`);
    }
    const first = this.seen.get(portfolio);
    if (!first) this.seen.set(portfolio, { language, source: record.source });
    else if (first.language !== language) {
      throw new InputError(
        `portfolio "${portfolio}" is given two languages: ${first.language} (${where(first.source)}) and ${language} (${where(record.source)}); a portfolio's documents are in one language, so give one`,
      );
    }
  }

  /** The portfolio's language, when a row gave one. */
  of(portfolio: string): Language | undefined {
    return this.seen.get(portfolio)?.language;
  }
}
