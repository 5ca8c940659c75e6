import type { ServiceClient } from '../../src/client';
import { translator, type Translator } from '../../src/i18n';
import { describeLimits } from '../../src/client/describe-limits';
import { TIERS, TIER_NAMES, type TierName } from '../../src/wire';
import type { HostApiCache } from './api-cache';
import type { ConnectionStatus } from '../contract/host-pane';
export type { ConnectionStatus };
import type { ServiceTarget } from './service-target';


/** The tier whose published per-minute limit the service reports, when none was configured. */
export function tierFor(minuteLimit: number | undefined): TierName | 'unknown' {
  return TIER_NAMES.find((t) => TIERS[t].perMinute === minuteLimit) ?? 'unknown';
}

/**
 * What the task pane shows: which service (and whether it is a sandbox), which tier, and the
 * budget left this minute and today as the host's shared rate limiter sees it. It asks for the
 * segment list through the host's cache (one call an hour), which proves the host can sign in.
 * Its sentence of the limits is in `tr`'s language (the request's: host-text.ts); `problem` is the service's or the connection's own words.
 */
export async function connectionStatus(client: ServiceClient, cache: HostApiCache, service: ServiceTarget, tr: Translator = translator('en')): Promise<ConnectionStatus> {
  let problem: string | undefined;
  // Asked through the host's cache (an hour): it proves the host can sign in, and its answer says
  // whether the service is a sandbox, even when another client in this process already knows the budget.
  {
    try {
      await cache.call('listSegments', { params: {}, query: new URLSearchParams(), body: undefined }, () => client.segments.list());
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
    }
  }
  const s = client.rateLimitStatus();
  return {
    service: service.label ?? new URL(service.baseUrl).host,
    // Configured as the sandbox, or seen to be one: every sandbox answer says so (x-sandbox: true), whatever the configuration.
    sandbox: (service.sandbox ?? false) || client.servedBySandbox,
    connected: problem === undefined,
    tier: service.tier ?? tierFor(s.minuteLimit),
    minute_limit: s.minuteLimit ?? null,
    minute_remaining: s.minuteRemaining ?? null,
    day_limit: s.dayLimit ?? null,
    day_remaining: s.dayRemaining ?? null,
    resets_at: s.resetsAt?.toISOString() ?? null,
    limits_in_force: describeLimits(s, tr),
    ...(problem ? { problem } : {}),
  };
}
