import type { ServiceClient } from '../../src/client';
import { MAX_BATCH, TIERS, isTierName } from '../../src/wire';
import type { AccountBudget } from '../contract/refresh-budget';
import type { ServiceTarget } from './service-target';
import { tierFor } from './status';

/**
 * `GET /addin/budget`: the account's pace and today's remaining budget as the host's shared gate
 * sees them, for the pane's estimate before a refresh. Spends no call: before the first answer
 * the limits come from the configured tier (and the day's remaining budget from its limit).
 */
export function accountBudget(client: ServiceClient, service: ServiceTarget, user: { usedToday: number; dailyCap: number | undefined }): AccountBudget {
  const s = client.rateLimitStatus();
  const pacing = client.pacing();
  const tier = service.tier ?? tierFor(s.minuteLimit);
  const published = isTierName(tier) ? TIERS[tier] : undefined;
  const perMinute = s.minuteLimit ?? published?.perMinute ?? null;
  const minuteMs = service.limits?.minuteMs ?? 60_000;
  const dayLimit = s.dayLimit ?? published?.perDay ?? null;
  return {
    tier,
    per_minute: perMinute,
    minute_ms: minuteMs,
    // The gate's own spacing once it knows the limit; before that, the tier's published pace.
    pace_ms: pacing.callsPerMs ? 1 / pacing.callsPerMs : perMinute ? minuteMs / perMinute : null,
    round_trip_ms: pacing.roundTripMs !== undefined && pacing.samples > 0 ? Math.round(pacing.roundTripMs) : null,
    day_limit: dayLimit,
    day_remaining: s.dayRemaining ?? dayLimit,
    day_resets_at: s.dayResetsAt?.toISOString() ?? null,
    user_day_remaining: user.dailyCap === undefined ? null : Math.max(0, user.dailyCap - user.usedToday),
    batch_size: MAX_BATCH,
  };
}
