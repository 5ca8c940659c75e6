import { translator, type Translator } from '../i18n';
import type { RateLimitStatus } from './rate-gate';

type LimitsInForce = Pick<RateLimitStatus, 'minuteLimit' | 'dayLimit' | 'minuteLimitSource' | 'dayLimitSource'>;

/**
 * The limits in force and where they came from, in one sentence for people: "3,000 a minute and
 * 500,000 a day, as the service states them for this account". One computation for the report's
 * analyst notes (English, the firm's) and the task pane (Excel's language, through the host).
 */
export function describeLimits(s: LimitsInForce, tr: Translator = translator('en')): string {
  const minute = s.minuteLimit === undefined ? undefined : tr.t('notes.limits_minute', { count: s.minuteLimit });
  const day = s.dayLimit === undefined ? undefined : tr.t('notes.limits_day', { count: s.dayLimit });
  if (!minute && !day) return tr.t('notes.limits_unknown');
  const from = (limits: string, source: string | undefined) => (source ? tr.t('notes.limits_from', { limits, source }) : limits);
  if (minute && day && s.minuteLimitSource === s.dayLimitSource) return from(tr.t('notes.limits_both', { minute, day }), s.minuteLimitSource);
  const parts = [minute && from(minute, s.minuteLimitSource), day && from(day, s.dayLimitSource)];
  return parts[0] && parts[1] ? tr.t('notes.limits_each', { minute: parts[0], day: parts[1] }) : (parts[0] || parts[1])!;
}
