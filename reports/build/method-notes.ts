import type { BuildContext } from './context';

/** How the figures were obtained, one paragraph each, printed in every format. */
export function methodNotes(ctx: BuildContext, facts: { previousFound: boolean; consolidated?: number }): string[] {
  const notes = [
    `Each holding was valued through the service's batch valuation as of ${ctx.asOf}, in ${ctx.currency}. ` +
      'The service values each holding line as a whole (its quantity included); the value shown is the mid estimate, low and high the estimate range ' +
      '(the mid value where the service gave no range).',
    'Purchase prices are the totals paid per holding line, as given in the holdings file. Return is value against cost; ' +
      'the annualised return uses the cost-weighted holding period.',
    'Investment scores and market validation come from the service\'s scores. Projections and exit analysis cover the largest holdings; ' +
      'performance against benchmarks comes from the service\'s portfolio analytics.',
  ];
  if (ctx.previous) {
    notes.push(
      facts.previousFound
        ? 'Month-on-month change compares each holding with the same asset in the previous report.'
        : 'No previous report for this portfolio was found in the --previous folder, so there is no month-on-month change.',
    );
  }
  if (facts.consolidated) notes.push(`This consolidated report combines ${facts.consolidated} portfolios; row numbers refer to each portfolio's own file.`);
  if (ctx.sandbox) notes.push('Figures come from the local sandbox (simulated market data), not the live service.');
  return notes;
}
