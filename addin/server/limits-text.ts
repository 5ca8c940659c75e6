import type { RateLimitStatus } from '../../src/client/rate-gate';
import type { Translator } from '../../src/i18n';

type LimitsInForce = Pick<RateLimitStatus, 'minuteLimit' | 'dayLimit' | 'minuteLimitSource' | 'dayLimitSource'>;

/**
 * The limits in force and where they came from, for the task pane in its language: the same
 * sentence as describeLimits (src/client, the report's analyst notes, English), each part a
 * catalogue message. English reads exactly as describeLimits writes it.
 */
export function limitsText(s: LimitsInForce, tr: Translator): string {
  const minute = s.minuteLimit === undefined ? undefined : tr.t('addin.limits_minute', { count: s.minuteLimit });
  const day = s.dayLimit === undefined ? undefined : tr.t('addin.limits_day', { count: s.dayLimit });
  if (!minute && !day) return tr.t('addin.limits_unknown');
  const from = (limits: string, source: string | undefined) => (source ? tr.t('addin.limits_from', { limits, source }) : limits);
  if (minute && day && s.minuteLimitSource === s.dayLimitSource) return from(tr.t('addin.limits_both', { minute, day }), s.minuteLimitSource);
  const parts = [minute && from(minute, s.minuteLimitSource), day && from(day, s.dayLimitSource)];
  return parts[0] && parts[1] ? tr.t('addin.limits_each', { minute: parts[0], day: parts[1] }) : (parts[0] || parts[1])!;
}
