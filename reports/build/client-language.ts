/**
 * The client's language in the build (issue 36): the translator of a report's language and the
 * few helpers every sentence the build composes shares. The JSON keeps machine values in English
 * (`returns_source`, `returns_unavailable`, codes); these turn them into the client's words.
 */
import { DEFAULT_LANGUAGE, translator, type Translator } from '../../src/i18n';
import { NO_EARLIER_MONTH_END } from '../../src/performance';
import type { BuildContext } from './context';
import { FROM_HISTORY_DATABASE, PREVIOUS_REPORT, THIS_REPORT_ALONE_PREFIX, NOT_EVERY_HOLDING_VALUED_PREFIX } from './performance';

/** The translator of the language a build context writes in (the run's, or a portfolio's own). */
export const buildTranslator = (ctx: Pick<BuildContext, 'language'>): Translator => translator(ctx.language ?? DEFAULT_LANGUAGE);

/** English's words, for what stays the analyst's (stderr, analyst_notes): they are for the firm, not the client. */
export const analystTranslator = (): Translator => translator(DEFAULT_LANGUAGE);

/**
 * A date inside the method text: English keeps the ISO date it has always printed ("2026-09-30",
 * which readers and tests match); every other language gets its own long date ("30. September 2026").
 */
export const sentenceDate = (tr: Translator, iso: string): string => (tr.lang.startsWith('en') ? iso : tr.date(iso));

/** Whole sentences in a row: Chinese and Japanese set no space between sentences. */
export const sentences = (tr: Translator, parts: readonly string[]): string => parts.join(tr.lang === 'ja' || tr.lang === 'zh-Hans' ? '' : ' ');

/** Why a figure is missing (the engine's English reason, kept as is in the JSON), in the client's words. */
export function reasonWords(tr: Translator, reason: string): string {
  if (reason === NO_EARLIER_MONTH_END) return tr.t('notes.reason_no_earlier_month_end');
  if (reason === 'not enough history') return tr.t('notes.reason_not_enough_history');
  const notValued = new RegExp(`^${NOT_EVERY_HOLDING_VALUED_PREFIX}(\\d{4}-\\d{2}-\\d{2})`).exec(reason);
  if (notValued) return tr.t('notes.reason_not_every_holding_valued', { date: sentenceDate(tr, notValued[1]!) });
  // A reason the catalogue does not know is the engine's own English: said as it is rather than lost.
  return reason;
}

/** Where the month-end values came from (`returns_source`, stable English in the JSON), in the client's words. */
export function sourceWords(tr: Translator, source: string): string {
  // The consolidated report's sources are its portfolios' ones, "; "-separated.
  return source
    .split('; ')
    .map((s) => {
      if (s === FROM_HISTORY_DATABASE) return tr.t('notes.source_database');
      if (s === `${FROM_HISTORY_DATABASE} and ${PREVIOUS_REPORT}`) return tr.t('notes.source_database_and_previous');
      if (s === PREVIOUS_REPORT) return tr.t('notes.source_previous');
      const alone = new RegExp(`^${THIS_REPORT_ALONE_PREFIX.replace(/[()]/g, '\\$&')}(.*)\\)$`).exec(s);
      if (alone) return tr.t('notes.source_alone', { reason: reasonWords(tr, alone[1]!) });
      return s;
    })
    .join('; ');
}

