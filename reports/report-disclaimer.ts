import type { ReportSummary } from './report-summary';
import { formatPercent } from './writers/text-format';

/**
 * The standard disclaimer: values are estimates, and it says plainly how much of the value is
 * not market validated (by value first: a count of 3 of 50 can be 96 % of the value). The job may
 * append firm-specific text.
 */
export function composeDisclaimer(summary: Pick<ReportSummary, 'asset_count' | 'market_validated_count' | 'market_validated_percent'>, sandbox: boolean): string {
  const parts = [
    'Values in this report are model estimates (low, mid and high), not offers, appraisals or guarantees of a sale price. ' +
      'Past performance and projections do not guarantee future results.',
  ];
  const notValidated = summary.asset_count - summary.market_validated_count;
  if (notValidated > 0) {
    parts.push(
      `${formatPercent(100 - summary.market_validated_percent)} of the value (${notValidated} of ${summary.asset_count} valuation${summary.asset_count === 1 ? '' : 's'}) ` +
        'is not market validated: treat those values with extra caution.',
    );
  } else if (summary.asset_count > 0) {
    parts.push('All valuations in this report are market validated.');
  }
  if (sandbox) parts.push('SANDBOX DATA: produced against the test sandbox, not the live service.');
  return parts.join(' ');
}
