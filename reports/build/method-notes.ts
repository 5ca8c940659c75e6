import type { RateTable } from '../../src/fx';
import type { ReportSummary } from '../report-data';
import type { BuildContext } from './context';

/** How the figures were obtained, one paragraph each, printed in every format. */
export function methodNotes(ctx: BuildContext, facts: { summary: Pick<ReportSummary, 'month_on_month' | 'returns_source' | 'returns_unavailable'>; consolidated?: number; currencies?: ReadonlySet<string> }): string[] {
  const s = facts.summary;
  const notes = [
    `Each holding was valued through the service's batch valuation as of ${ctx.asOf}, in ${ctx.currency}. ` +
      'The service values each holding line as a whole (its quantity included; wine in cases of 12 × 75 cl); the value shown is the mid estimate, low and high the estimate range ' +
      '(the mid value where the service gave no range).',
    'Purchase prices are the totals paid per holding line, as given in the holdings file. Return is value against cost; ' +
      'the annualised return spreads it over the time each purchase has been held, larger purchases counting for more. ' +
      'The money-weighted and time-weighted returns on the summary are the portfolio\'s since its first transaction, the same figures as its performance over the periods: ' +
      `from its transactions (purchases, sales, fees and income at their dates) and its month-end values, taken from ${s.returns_source}.`,
    'Investment scores and market validation come from the service\'s scores. Projections and exit analysis cover the largest holdings and use each holding\'s own valuation; ' +
      'performance against benchmarks comes from the service\'s portfolio analytics.',
  ];
  const foreign = [...(facts.currencies ?? [])].filter((c) => c !== ctx.currency).sort();
  // Without a rates file nothing is converted (a row in another currency is an error), so there is nothing to say.
  if (ctx.fx) {
    notes.push(
      `Amounts in other currencies${foreign.length ? ` (${foreign.join(', ')})` : ''} are converted to ${ctx.currency} with ${ratesSource(ctx.fx)}: ` +
        'purchases at the rate of the purchase date, values at the rate of the valuation date (the last rate published on or before each date).' +
        (ctx.fx.kind === 'illustrative' ? ' Those rates are illustrative, invented for demonstration: every converted amount in this report is illustrative only, not a real figure.' : ''),
    );
  }
  notes.push(
    s.month_on_month
      ? `Month-on-month change compares the portfolio and each holding with the same asset at the month-end of ${s.month_on_month.previous_as_of}, from ${s.returns_source}.`
      : `There is no month-on-month change: ${s.returns_unavailable.month_on_month ?? 'no earlier month-end recorded'}${ctx.previous ? ' (in the history database or, for this portfolio in this currency, in the --previous folder)' : ''}.`,
  );
  if (facts.consolidated) notes.push(`This internal report combines ${facts.consolidated} portfolios; row numbers refer to each portfolio's own file.`);
  if (ctx.sandbox) notes.push('Figures come from the local sandbox (simulated market data), not the live service.');
  return notes;
}

/**
 * The rates as what they are: the ECB's only for its own published file (src/fx/provenance.ts),
 * else the firm's; always the file and its last rate, so the reader can tell which rates were used.
 */
function ratesSource(fx: RateTable): string {
  const which = `${fx.source}, last rate ${fx.lastDate() ?? 'none'}`;
  if (fx.kind === 'ecb') return `the European Central Bank's euro reference rates (${which})`;
  if (fx.kind === 'illustrative') return `illustrative exchange rates that are not the European Central Bank's or any market's (${which})`;
  return `the firm's exchange rates (${which})`;
}
