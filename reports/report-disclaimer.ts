import { DEFAULT_LANGUAGE, translator, type Language } from '../src/i18n';
import type { ReportSummary } from './report-summary';

/**
 * The standard disclaimer, in the report's language: values are estimates, and it says plainly
 * how much of the value is not market validated (by value first: a count of 3 of 50 can be 96 %
 * of the value). The job may append firm-specific text.
 */
export function composeDisclaimer(
  summary: Pick<ReportSummary, 'asset_count' | 'market_validated_count' | 'market_validated_percent'>,
  sandbox: boolean,
  language: Language = DEFAULT_LANGUAGE,
): string {
  const tr = translator(language);
  const parts = [tr.t('notes.disclaimer_estimates')];
  const notValidated = summary.asset_count - summary.market_validated_count;
  if (notValidated > 0) {
    parts.push(tr.t('notes.disclaimer_not_validated', { percent: tr.percent(100 - summary.market_validated_percent), count: notValidated, total: summary.asset_count }));
  } else if (summary.asset_count > 0) {
    parts.push(tr.t('notes.disclaimer_all_validated'));
  }
  if (sandbox) parts.push(tr.t('notes.disclaimer_sandbox'));
  // Chinese and Japanese set no space between sentences (client-language.ts says the same for the build).
  return parts.join(language === 'ja' || language === 'zh-Hans' ? '' : ' ');
}
