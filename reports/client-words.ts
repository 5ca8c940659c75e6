/**
 * Words the build and the writers both show the client (issue 36): a segment's name, the
 * service's signal codes, and the JSON's stable English `returns_source` and `returns_unavailable`
 * reasons as sentences, in the report's language. Codes the catalogue does not know yet (the
 * service may add one) are shown as the house always showed them.
 */
import type { Translator } from '../src/i18n';
import { MOMENTUM_VALUES, PRICE_TRENDS, SENTIMENTS, SENTIMENT_TRENDS, SEVERITIES, VOLUME_LEVELS, segmentById } from '../src/wire';
import { readable } from './writers/labels';
import { NO_EARLIER_MONTH_END } from '../src/performance';
import { FROM_HISTORY_DATABASE, NOT_EVERY_HOLDING_VALUED_PREFIX, PREVIOUS_REPORT, THIS_REPORT_ALONE_PREFIX } from './build/performance';

/** A segment's name ("Luxury Watches", "Luxusuhren"); an id the service added since stays as it came. */
export const segmentName = (tr: Translator, id: string): string => (segmentById(id) ? tr.t('notes.segment', { segment: id }) : id);

const CODES = new Set<string>([...MOMENTUM_VALUES, ...VOLUME_LEVELS, ...SENTIMENTS, ...PRICE_TRENDS, ...SENTIMENT_TRENDS, ...SEVERITIES]);

/** A signal code as a word ("above_average" → "Above average", "Überdurchschnittlich"). */
export const codeWord = (tr: Translator, code: string): string => (CODES.has(code) ? tr.t('dashboard.code', { code }) : readable(code));

/** A segment in a table cell: its name, or an unknown id made readable ("real_estate" → "Real estate"), as the writers' segmentLabel. */
export const segmentLabel = (tr: Translator, id: string): string => (segmentById(id) ? segmentName(tr, id) : readable(id));

/** Why a figure is missing (the engine's English reason, kept as is in the JSON), in the client's words. */
export function reasonWords(tr: Translator, reason: string): string {
  if (reason === NO_EARLIER_MONTH_END) return tr.t('notes.reason_no_earlier_month_end');
  if (reason === 'not enough history') return tr.t('notes.reason_not_enough_history');
  const notValued = new RegExp(`^${NOT_EVERY_HOLDING_VALUED_PREFIX}(\\d{4}-\\d{2}-\\d{2})`).exec(reason);
  if (notValued) return tr.t('notes.reason_not_every_holding_valued', { date: tr.lang.startsWith('en') ? notValued[1]! : tr.date(notValued[1]!) });
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

