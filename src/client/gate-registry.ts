import { RateGate, type GateLimits } from './rate-gate';

/**
 * The service counts per account, so every client instance of one account in this process
 * (the report job's workers, several add-in functions) must share one gate. Module state on
 * purpose: it is the process-wide view of each account's budget.
 */
const gates = new Map<string, RateGate>();

export function sharedGate(key: string, limits: GateLimits): RateGate {
  const existing = gates.get(key);
  if (existing) {
    existing.tighten(limits);
    return existing;
  }
  const gate = new RateGate(limits);
  gates.set(key, gate);
  return gate;
}

/** The default key: one account is one client id at one service address. */
export function accountKey(baseUrl: string, clientId: string | undefined): string {
  return `${baseUrl.replace(/\/+$/, '')}#${clientId ?? '(host-authenticated)'}`;
}
