import type { RateTable } from '../../src/fx';
import type { Translator } from '../../src/i18n';
import type { ReportSummary } from '../report-data';
import { reasonWords, sourceWords } from '../client-words';
import { buildTranslator, sentenceDate, sentences } from './client-language';
import type { BuildContext } from './context';

/** How the figures were obtained, one paragraph each, printed in every format, in the report's language (ctx.language). */
export function methodNotes(ctx: BuildContext, facts: { summary: Pick<ReportSummary, 'month_on_month' | 'returns_source' | 'returns_unavailable'>; consolidated?: number; currencies?: ReadonlySet<string> }): string[] {
  const tr = buildTranslator(ctx);
  const s = facts.summary;
  const source = sourceWords(tr, s.returns_source);
  const notes = [
    tr.t('notes.method_valuation', { date: sentenceDate(tr, ctx.asOf), currency: ctx.currency }),
    tr.t('notes.method_returns', { source }),
    tr.t('notes.method_scores'),
  ];
  const foreign = [...(facts.currencies ?? [])].filter((c) => c !== ctx.currency).sort();
  // Without a rates file nothing is converted (a row in another currency is an error), so there is nothing to say.
  if (ctx.fx) {
    const converted = tr.t('notes.method_fx', { listed: foreign.length ? 'yes' : 'no', currencies: foreign.join(', '), currency: ctx.currency, rates: ratesSource(tr, ctx.fx) });
    notes.push(ctx.fx.kind === 'illustrative' ? sentences(tr, [converted, tr.t('notes.method_fx_illustrative')]) : converted);
  }
  notes.push(
    s.month_on_month
      ? tr.t('notes.method_month_on_month', { date: sentenceDate(tr, s.month_on_month.previous_as_of), source })
      : tr.t(ctx.previous ? 'notes.method_no_month_on_month_searched' : 'notes.method_no_month_on_month', {
          reason: reasonWords(tr, s.returns_unavailable.month_on_month ?? 'no earlier month-end recorded'),
        }),
  );
  if (facts.consolidated) notes.push(tr.t('notes.method_consolidated', { count: facts.consolidated }));
  if (ctx.sandbox) notes.push(tr.t('notes.method_sandbox'));
  return notes;
}

/**
 * The rates as what they are: the ECB's only for its own published file (src/fx/provenance.ts),
 * else the firm's; always the file and its last rate, so the reader can tell which rates were used.
 */
function ratesSource(tr: Translator, fx: RateTable): string {
  const last = fx.lastDate();
  const which = { file: fx.source, date: last ? sentenceDate(tr, last) : tr.t('notes.rates_none') };
  if (fx.kind === 'ecb') return tr.t('notes.rates_ecb', which);
  if (fx.kind === 'illustrative') return tr.t('notes.rates_illustrative', which);
  return tr.t('notes.rates_firm', which);
}
