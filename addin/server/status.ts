import type { ServiceClient } from '../../src/client';
import { TIERS, TIER_NAMES, type TierName } from '../../src/wire';
import type { HostApiCache } from './api-cache';
import type { ConnectionStatus } from '../contract/host-pane';
export type { ConnectionStatus };
import type { ServiceTarget } from './service-target';


/** The tier whose published per-minute limit the service reports, when none was configured. */
function tierFor(minuteLimit: number | undefined): TierName | 'unknown' {
  return TIER_NAMES.find((t) => TIERS[t].perMinute === minuteLimit) ?? 'unknown';
}

/**
 * What the task pane shows: which service, which tier, and the budget left this minute and
 * today as the host's shared rate limiter sees it. Until the host has made a call it knows
 * no budget, so it asks for the (cached) segment list once, which also proves it can sign in.
 */
export async function connectionStatus(client: ServiceClient, cache: HostApiCache, service: ServiceTarget): Promise<ConnectionStatus> {
  let problem: string | undefined;
  if (client.rateLimitStatus().minuteRemaining === undefined) {
    try {
      await cache.call('listSegments', { params: {}, query: new URLSearchParams(), body: undefined }, () => client.segments.list());
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
    }
  }
  const s = client.rateLimitStatus();
  return {
    service: service.label ?? new URL(service.baseUrl).host,
    sandbox: service.sandbox ?? false,
    connected: problem === undefined,
    tier: service.tier ?? tierFor(s.minuteLimit),
    minute_limit: s.minuteLimit ?? null,
    minute_remaining: s.minuteRemaining ?? null,
    day_limit: s.dayLimit ?? null,
    day_remaining: s.dayRemaining ?? null,
    resets_at: s.resetsAt?.toISOString() ?? null,
    ...(problem ? { problem } : {}),
  };
}
