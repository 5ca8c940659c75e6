import type { ReportSummary } from './report-summary';

/**
 * The standard disclaimer: values are estimates, and it says so plainly when some valuations
 * are not market validated. The job may append firm-specific text.
 */
export function composeDisclaimer(summary: Pick<ReportSummary, 'asset_count' | 'market_validated_count'>, sandbox: boolean): string {
  const parts = [
    'Values in this report are model estimates (low, mid and high), not offers, appraisals or guarantees of a sale price. ' +
      'Past performance and projections do not guarantee future results.',
  ];
  const notValidated = summary.asset_count - summary.market_validated_count;
  if (notValidated > 0) {
    parts.push(
      `${notValidated} of ${summary.asset_count} valuation${summary.asset_count === 1 ? '' : 's'} ` +
        `${notValidated === 1 ? 'is' : 'are'} not market validated (market_validated is false): ` +
        'treat those values with extra caution.',
    );
  } else if (summary.asset_count > 0) {
    parts.push('All valuations in this report are market validated.');
  }
  if (sandbox) parts.push('SANDBOX DATA: produced against the test sandbox, not the live service.');
  return parts.join(' ');
}
