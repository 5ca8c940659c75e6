/**
 * Words the build and the writers both show the client (issue 36): a segment's name, and the
 * JSON's stable English `returns_source`, `returns_unavailable` and period notes as sentences in
 * the report's language. The JSON keeps the engine's English (programs and the schema read it);
 * every document a person reads says it through here, the one place it is translated.
 */
import type { MessageKey, Translator } from '../src/i18n';
import { segmentById } from '../src/wire';
import { NO_EARLIER_MONTH_END, NOT_ENOUGH_HISTORY } from '../src/performance';
import { readable, textDate } from './writers/labels';
import { FROM_HISTORY_DATABASE, NOT_EVERY_HOLDING_VALUED_PREFIX, PREVIOUS_REPORT, THIS_REPORT_ALONE_PREFIX } from './build/performance';

/**
 * A segment's name in the reader's language ("Luxury Watches", "Luxusuhren"), the one set of
 * names every writer and the build use; an id the service added since is made readable
 * ("real_estate" → "Real estate") rather than shown as a missing key.
 */
export const segmentName = (tr: Translator, id: string): string => (segmentById(id) ? tr.t(`columns.seg_${id}` as MessageKey) : readable(id));

const DATE = '(\\d{4}-\\d{2}-\\d{2})';

/**
 * Every reason the engine (src/performance) and the build (build/performance.ts) give for a
 * missing figure, as a pattern over their English and the catalogue key that says it. Dates are
 * the locale's; a reason may hold another (`rest`), said in turn.
 */
const REASONS: { pattern: RegExp; say: (tr: Translator, m: RegExpExecArray) => string }[] = [
  { pattern: new RegExp(`^${NO_EARLIER_MONTH_END}$`), say: (tr) => tr.t('notes.reason_no_earlier_month_end') },
  { pattern: new RegExp(`^${NOT_ENOUGH_HISTORY}$`), say: (tr) => tr.t('notes.reason_not_enough_history') },
  { pattern: /^not enough history: (.+)$/, say: (tr, m) => tr.t('notes.reason_not_enough_history_because', { detail: reasonWords(tr, m[1]!) }) },
  { pattern: /^time-weighted return: (.+)$/, say: (tr, m) => tr.t('notes.reason_twr', { reason: reasonWords(tr, m[1]!) }) },
  { pattern: /^money-weighted return: (.+)$/, say: (tr, m) => tr.t('notes.reason_mwr', { reason: reasonWords(tr, m[1]!) }) },
  { pattern: new RegExp(`^no value recorded on (${DATE}(?:, ${DATE})*)$`), say: (tr, m) => tr.t('notes.reason_no_value_on', { dates: m[1]!.split(', ').map((d) => textDate(tr, d)).join(', ') }) },
  { pattern: new RegExp(`^no value recorded for (\\d+) month-ends, ${DATE} to ${DATE}$`), say: (tr, m) => tr.t('notes.reason_no_values_for', { count: Number(m[1]), from: textDate(tr, m[2]!), to: textDate(tr, m[3]!) }) },
  { pattern: new RegExp(`^no flows in the ledger on or before ${DATE}$`), say: (tr, m) => tr.t('notes.reason_no_flows', { date: textDate(tr, m[1]!) }) },
  { pattern: new RegExp(`^the portfolio's first flow is on ${DATE}, after the period's start \\(${DATE}\\)$`), say: (tr, m) => tr.t('notes.reason_first_flow_after', { date: textDate(tr, m[1]!), start: textDate(tr, m[2]!) }) },
  { pattern: new RegExp(`^the value recorded before this one \\(${DATE}\\) is not the previous month-end \\(${DATE}\\)$`), say: (tr, m) => tr.t('notes.reason_not_previous_month_end', { date: textDate(tr, m[1]!), expected: textDate(tr, m[2]!) }) },
  { pattern: /^no money in, or all of it on one day$/, say: (tr) => tr.t('notes.reason_no_money_in') },
  { pattern: new RegExp(`^nothing invested to measure against from ${DATE} to ${DATE}$`), say: (tr, m) => tr.t('notes.reason_nothing_invested', { from: textDate(tr, m[1]!), to: textDate(tr, m[2]!) }) },
  { pattern: new RegExp(`^${NOT_EVERY_HOLDING_VALUED_PREFIX}${DATE}`), say: (tr, m) => tr.t('notes.reason_not_every_holding_valued', { date: textDate(tr, m[1]!) }) },
];

/** Chinese and Japanese punctuate full width, with no space after. */
const CJK = new Set<string>(['ja', 'zh-Hans']);

/** Between reasons, as the engine's "; " in the reader's script (Arabic has its own semicolon). */
const separator = (tr: Translator): string => (CJK.has(tr.lang) ? '；' : tr.lang === 'ar' ? '؛ ' : '; ');

/** One reason (the engine's English, kept as is in the JSON) in the client's words. */
function oneReason(tr: Translator, reason: string): string {
  for (const r of REASONS) {
    const m = r.pattern.exec(reason);
    if (m) return r.say(tr, m);
  }
  // A reason no pattern knows (a newer engine's, or the add-in host's own) is English: said as it
  // is in English, and in any other language as the catalogue's general words rather than in English.
  return tr.lang === 'en' ? reason : tr.t('notes.reason_other');
}

/** Why a figure is missing, in the client's words: the engine joins a period's notes with "; ". */
export function reasonWords(tr: Translator, reason: string): string {
  return reason
    .split('; ')
    .map((r) => oneReason(tr, r))
    .join(separator(tr));
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
      if (s.startsWith(THIS_REPORT_ALONE_PREFIX) && s.endsWith(')')) return tr.t('notes.source_alone', { reason: reasonWords(tr, s.slice(THIS_REPORT_ALONE_PREFIX.length, -1)) });
      return tr.lang === 'en' ? s : tr.t('notes.reason_other');
    })
    .join(separator(tr));
}

/** The reason a period or figure is not available, as a sentence of its own: its first letter raised, a full stop. */
export function reasonSentence(tr: Translator, reason: string): string {
  const t = reasonWords(tr, reason).trim();
  const body = t.charAt(0).toLocaleUpperCase(tr.lang) + t.slice(1);
  return /[.!?。！？]$/.test(body) ? body : `${body}${CJK.has(tr.lang) ? '。' : '.'}`;
}
