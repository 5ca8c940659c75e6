import type { ServiceClient } from '../../src/client';
import { TIERS, isTierName } from '../../src/wire';
import type { AuthMode } from './auth/settings';
import type { ServiceTarget } from './service-target';

/** Without ADDIN_USER_DAILY_CAP, a signed-in user may spend this share of the account's day budget (ADDIN_USER_DAILY_SHARE). */
export const DEFAULT_USER_DAILY_SHARE_PERCENT = 25;

export interface DailyShareSettings {
  /** ADDIN_USER_DAILY_CAP: service calls per user per day; 0 turns every per-user cap off. */
  cap?: number;
  /** ADDIN_USER_DAILY_SHARE: percent of the day's budget per user; 0 turns the share off. */
  sharePercent?: number;
}

/**
 * The per-user daily cap in force, read at each call: a fixed cap when one is configured, else a
 * share of the account's day budget (as the service states it, else the tier's published one;
 * none until either is known). The share applies by default only with sign-in (ADDIN_AUTH=entra):
 * without it a "user" is a client address, and behind a proxy every user has the same one.
 */
export function userDailyCap(settings: DailyShareSettings, authMode: AuthMode, client: ServiceClient, service: ServiceTarget): () => number | undefined {
  if (settings.cap !== undefined) return () => (settings.cap === 0 ? undefined : settings.cap);
  const percent = settings.sharePercent ?? (authMode === 'entra' ? DEFAULT_USER_DAILY_SHARE_PERCENT : 0);
  if (percent <= 0) return () => undefined;
  return () => {
    const dayLimit = client.rateLimitStatus().dayLimit ?? (service.tier && isTierName(service.tier) ? TIERS[service.tier].perDay : undefined);
    return dayLimit === undefined ? undefined : Math.max(1, Math.floor((dayLimit * percent) / 100));
  };
}
