import type { Translator } from '../../src/i18n';
import type { Section } from '../report-data';
import { analystTranslator } from './client-language';

/** Words that belong to the analyst, not the client: account tiers, scopes, HTTP statuses, retries. */
const TECHNICAL = /\b(tier|scopes?|403|401|429|5\d\d|forbidden|http|status|request budget|requests?|retry|retries|retried|backoff)\b/i;

/** The sections whose notes the client reads, by their title's catalogue key. */
export type ClientSection = 'notes.section_benchmarks' | 'notes.section_projections' | 'notes.section_exit_analysis';

/**
 * A section as the client reads it, in the client's language (`tr`). An omitted section gets a
 * plain sentence; any note that carries technical detail is replaced by a plain one, the detail
 * going to the analyst's notes in English (stderr, the Errors/Notes sheet, the JSON), e.g.
 * "Exit analysis: Omitted: the account's tier does not include exit analysis (the service
 * answered 403 Forbidden for the exit scope)."
 */
export function forClient<T>(section: Section<T>, title: ClientSection, analystNotes: string[], tr: Translator): Section<T> {
  const note = section.note;
  // An included section's note lists the holdings that failed with the service's own words: always the analyst's.
  if (note === undefined || (!section.included ? !TECHNICAL.test(note) : false)) return section;
  analystNotes.push(`${analystTranslator().t(title)}: ${note}`);
  if (!section.included) return { included: false, note: tr.t('notes.section_omitted', { title: tr.t(title) }) };
  const holdings = note.match(/\brow \d+/g)?.length ?? 0;
  return {
    included: true,
    data: section.data,
    note: holdings > 0 ? tr.t('notes.section_unavailable_for', { count: holdings }) : tr.t('notes.section_unavailable_some'),
  };
}
