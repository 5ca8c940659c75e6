import type { RateTable } from '../../src/fx';
import type { BuildContext } from './context';

/** How the figures were obtained, one paragraph each, printed in every format. */
export function methodNotes(ctx: BuildContext, facts: { previousFound: boolean; consolidated?: number; currencies?: ReadonlySet<string> }): string[] {
  const notes = [
    `Each holding was valued through the service's batch valuation as of ${ctx.asOf}, in ${ctx.currency}. ` +
      'The service values each holding line as a whole (its quantity included; wine in cases of 12 × 75 cl); the value shown is the mid estimate, low and high the estimate range ' +
      '(the mid value where the service gave no range).',
    'Purchase prices are the totals paid per holding line, as given in the holdings file. Return is value against cost; ' +
      'the annualised return uses the cost-weighted holding period; the money-weighted return is the internal rate of return of the purchases at their dates and today\'s value.',
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
  if (ctx.previous) {
    notes.push(
      facts.previousFound
        ? 'Month-on-month change compares each holding with the same asset in the previous report.'
        : 'No previous report for this portfolio (in this currency) was found in the --previous folder, so there is no month-on-month change or time-weighted return.',
    );
  }
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
