import type { LimitSource } from './account-limit';
import type { RateLimitStatus } from './rate-gate';

type LimitsInForce = Pick<RateLimitStatus, 'minuteLimit' | 'dayLimit' | 'minuteLimitSource' | 'dayLimitSource'>;

const FROM: Record<LimitSource, string> = {
  service: 'as the service states them for this account',
  tier: "the tier's published limits, used until the service states the account's own",
  ceiling: 'a ceiling set in this configuration, below what the account allows',
};

/**
 * The limits in force and where they came from, in one sentence for people (the task pane, a
 * report's analyst notes): "3,000 a minute and 500,000 a day, as the service states them for
 * this account".
 */
export function describeLimits(s: LimitsInForce): string {
  const minute = s.minuteLimit === undefined ? undefined : `${s.minuteLimit.toLocaleString('en-US')} a minute`;
  const day = s.dayLimit === undefined ? undefined : `${s.dayLimit.toLocaleString('en-US')} a day`;
  if (!minute && !day) return 'not known yet: the service states them on its first answer';
  const minuteFrom = s.minuteLimitSource && FROM[s.minuteLimitSource];
  const dayFrom = s.dayLimitSource && FROM[s.dayLimitSource];
  if (minute && day && minuteFrom === dayFrom) return `${minute} and ${day}${minuteFrom ? `, ${minuteFrom}` : ''}`;
  return [minute && `${minute}${minuteFrom ? `, ${minuteFrom}` : ''}`, day && `${day}${dayFrom ? `, ${dayFrom}` : ''}`].filter(Boolean).join('; ');
}
