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
  if (foreign.length > 0 || ctx.fx) {
    notes.push(
      `Amounts in other currencies${foreign.length ? ` (${foreign.join(', ')})` : ''} are converted to ${ctx.currency} with the European Central Bank's reference rates from the firm's rates file: ` +
        'purchases at the rate of the purchase date, values at the rate of the valuation date (the last rate published on or before each date).',
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
