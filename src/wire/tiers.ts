import type { Scope } from './auth';

export const TIER_NAMES = ['starter', 'pro', 'enterprise'] as const;
export type TierName = (typeof TIER_NAMES)[number];

export interface TierLimits {
  perMinute: number;
  perDay: number;
}

/**
 * Published limits (spec) and the scopes each tier carries (not in the spec: ours, see
 * docs/decisions.md). Enterprise limits are set per account; the numbers here are the
 * default the sandbox gives an enterprise account that names none.
 */
export const TIERS: Record<TierName, TierLimits & { scopes: readonly Scope[] }> = {
  starter: { perMinute: 60, perDay: 5_000, scopes: ['valuations', 'scores', 'signals'] },
  pro: { perMinute: 300, perDay: 50_000, scopes: ['valuations', 'scores', 'projections', 'signals', 'portfolio'] },
  enterprise: { perMinute: 1_000, perDay: 500_000, scopes: ['valuations', 'scores', 'projections', 'signals', 'portfolio', 'exit'] },
};

export function isTierName(v: unknown): v is TierName {
  return typeof v === 'string' && (TIER_NAMES as readonly string[]).includes(v);
}

/** On every sandbox answer, never on the real service's: whatever a client makes from such answers is marked simulated (issue 16). */
export const SANDBOX_HEADER = 'x-sandbox';

/** Rate-limit headers: the spec's three describe the per-minute window; the -Day ones are ours. */
export const RATE_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
  dayLimit: 'x-ratelimit-limit-day',
  dayRemaining: 'x-ratelimit-remaining-day',
  dayReset: 'x-ratelimit-reset-day',
} as const;
