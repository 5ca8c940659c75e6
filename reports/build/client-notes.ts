import type { Section } from '../report-data';

/** Words that belong to the analyst, not the client: account tiers, scopes, HTTP statuses, retries. */
const TECHNICAL = /\b(tier|scopes?|403|401|429|5\d\d|forbidden|http|status|request budget|requests?|retry|retries|retried|backoff)\b/i;

/**
 * A section as the client reads it. An omitted section gets a plain sentence; any note that
 * carries technical detail is replaced by a plain one, the detail going to the analyst's notes
 * (stderr, the Errors/Notes sheet, the JSON), e.g. "Exit analysis: Omitted: the account's tier
 * does not include exit analysis (the service answered 403 Forbidden for the exit scope)."
 */
export function forClient<T>(section: Section<T>, title: string, analystNotes: string[]): Section<T> {
  const note = section.note;
  // An included section's note lists the holdings that failed with the service's own words: always the analyst's.
  if (note === undefined || (!section.included ? !TECHNICAL.test(note) : false)) return section;
  analystNotes.push(`${title}: ${note}`);
  if (!section.included) return { included: false, note: `${title} is not part of this report.` };
  const holdings = note.match(/\brow \d+/g)?.length ?? 0;
  return {
    included: true,
    data: section.data,
    note: holdings > 0 ? `Not available for ${holdings} of these holdings this month.` : 'Not available for some of these holdings this month.',
  };
}
