/**
 * The one place the engine's English machine fields become the client's words (issue 36,
 * reports/client-words.ts): every reason a return is unavailable that the engine gives, read from
 * the engine itself, says itself in every language without an English sentence; the house English
 * prints the engine's words unchanged; segments have one set of names for every writer.
 */
import { describe, expect, it } from 'vitest';
import { reasonSentence, reasonWords, segmentName, sourceWords } from '../../reports/client-words';
import { aloneBecause, FROM_HISTORY_DATABASE, notEveryHoldingValued, THIS_REPORT_ALONE } from '../../reports/build/performance';
import { LANGUAGES, PSEUDO_LANGUAGE, translator, type Language } from '../../src/i18n';
import { AREAS } from '../../src/i18n/catalogues';
import { NO_EARLIER_MONTH_END, NOT_ENOUGH_HISTORY, performanceOverPeriods, portfolioPerformance, type DatedFlow } from '../../src/performance';
import { SEGMENT_IDS } from '../../src/wire/segments';

const AS_OF = '2026-10-31';
const buy = (date: string, amount: number): DatedFlow => ({ date, amount, kind: 'external' });

/** Every reason the engine gives for the scenarios that make one: read from its results, not written out here. */
function engineReasons(): string[] {
  const reasons = new Set<string>();
  const collect = (history: { asOf: string; value: number }[], flows: DatedFlow[]) => {
    const r = performanceOverPeriods(history, flows, AS_OF);
    for (const why of Object.values(r.unavailable)) if (why) reasons.add(why);
    for (const p of Object.values(r.periods)) if (p?.note) reasons.add(p.note);
  };
  collect([], [buy('2026-01-15', 1000)]); // no value on the as-of date
  collect([{ asOf: AS_OF, value: 1000 }], []); // no flows
  collect([{ asOf: AS_OF, value: 1200 }], [buy('2026-06-15', 1000)]); // month-ends missing (more than three), first flow after a period's start
  collect([{ asOf: '2026-08-31', value: 1000 }, { asOf: AS_OF, value: 1200 }], [buy('2026-08-20', 1000)]); // one month-end missing
  collect([{ asOf: AS_OF, value: 1000 }], [buy(AS_OF, 1000)]); // all the money on one day
  const month = portfolioPerformance({ asOf: AS_OF, value: { unknown: notEveryHoldingValued(AS_OF) }, recorded: [{ asOf: '2026-08-31', value: 900 }], flows: [buy('2026-01-15', 800)], holdings: [] });
  for (const why of [month.monthOnMonthUnavailable, month.monthOnMonth?.return_unavailable, month.sinceInception.mwr_unavailable]) if (why) reasons.add(why);
  // What the month-on-month change gives (portfolio.ts, monthChange) and the report's own fallbacks.
  reasons.add('the value recorded before this one (2026-08-31) is not the previous month-end (2026-09-30)');
  reasons.add(NO_EARLIER_MONTH_END).add(NOT_ENOUGH_HISTORY).add(notEveryHoldingValued(AS_OF));
  return [...reasons];
}

const CLIENT_LANGUAGES = LANGUAGES.filter((l) => l !== 'en' && l !== 'en-GB');
/** Runs of three words or more of an English text: what an untranslated sentence would leave. */
const englishRuns = (english: string) => english.split(/[():;,]/).map((s) => s.trim()).filter((s) => s.split(' ').length >= 3);

describe('the reasons a return is unavailable, in the client words', () => {
  const reasons = engineReasons();

  it('reads a reason of every kind the engine gives', () => {
    // Each pattern of reports/client-words.ts met at least once (a scenario that stopped giving its reason would shrink this).
    for (const start of ['not enough history: no value recorded on', 'no flows in the ledger', "not enough history: the portfolio's first flow", 'time-weighted return: not enough history: no value recorded for', 'money-weighted return: no money in', 'not every holding was valued']) {
      expect(reasons.some((r) => r.includes(start)), start).toBe(true);
    }
  });

  it.each(CLIENT_LANGUAGES)('%s: every reason is said from the catalogue, with no English left', (lang: Language) => {
    const tr = translator(lang);
    for (const reason of reasons) {
      const words = reasonWords(tr, reason);
      expect(words, reason).not.toBe(tr.t('notes.reason_other'));
      for (const run of englishRuns(reason)) expect(words, reason).not.toContain(run);
    }
    expect(sourceWords(tr, `${FROM_HISTORY_DATABASE}; ${THIS_REPORT_ALONE}`)).not.toMatch(/history database|this report alone|month-end/);
  });

  it('leaves the house English exactly as the engine wrote it, and a reason it does not know as it is', () => {
    const en = translator('en');
    for (const reason of reasons) expect(reasonWords(en, reason)).toBe(reason);
    expect(sourceWords(en, aloneBecause('no history database'))).toBe('this report alone (no history database)');
    expect(reasonWords(translator('de'), 'a reason from a newer engine')).toBe(translator('de').t('notes.reason_other'));
  });

  it('writes the dates in the locale, en-GB through Intl', () => {
    expect(reasonWords(translator('de'), 'no flows in the ledger on or before 2026-10-31')).toContain(translator('de').date('2026-10-31'));
    expect(reasonWords(translator('en-GB'), 'no flows in the ledger on or before 2026-10-31')).toContain('31 Oct');
    expect(reasonSentence(translator('ja'), NOT_ENOUGH_HISTORY)).toMatch(/。$/);
    expect(reasonSentence(translator('fr'), NOT_ENOUGH_HISTORY)).toMatch(/^H.*\.$/);
  });
});

describe('segment names', () => {
  it('come from one set of catalogue keys, in every language; an id the service added since is made readable', () => {
    expect(Object.keys(AREAS.notes.en)).not.toContain('segment');
    for (const lang of [...LANGUAGES, PSEUDO_LANGUAGE] as Language[]) {
      const tr = translator(lang);
      for (const id of SEGMENT_IDS) expect(segmentName(tr, id)).toBe(tr.t(`columns.seg_${id}` as never));
    }
    expect(segmentName(translator('de'), 'watches')).toBe('Luxusuhren');
    expect(segmentName(translator('de'), 'space_travel')).toBe('Space travel');
  });
});
