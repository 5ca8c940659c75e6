import { TIERS, type TierName } from '../wire';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { ServiceError } from './errors';
import type { ClientLogger } from './logger';
import type { CallObserver } from './observer';
import type { AccountGate, GateLimits } from './rate-gate';
import type { TokenProvider } from './tokens';
import type { FetchLike } from './transport';

export interface ClientLimits {
  perMinute?: number;
  perDay?: number;
  /** Length of the "minute" window (default 60 000); short in tests and benchmarks. */
  minuteMs?: number;
  /** Length of the "day" window (default 86 400 000). */
  dayMs?: number;
  /** Safety margin added to the minute window (default 1.5% of it, at least 10 ms). */
  marginMs?: number;
}

export interface ClientOptions {
  /** The service address including /v1, e.g. http://127.0.0.1:4010/v1. */
  baseUrl: string;
  /** Client credentials (server-side use only: never ship them to a browser). */
  clientId?: string;
  clientSecret?: string;
  /** Instead of credentials: the host hands out tokens, or returns undefined when it adds the header itself. */
  tokenProvider?: TokenProvider;
  /**
   * The account's tier: its published limits pace the client until the service's first answer
   * states the account's own (X-RateLimit-Limit, -Day), which then govern, above or below.
   */
  tier?: TierName;
  /**
   * perMinute / perDay: a ceiling of your own (to leave room for other users of the account); the
   * stricter of it and the service's stated limit governs. With neither a tier nor a ceiling, one
   * request goes first and its headers say the limits.
   */
  limits?: ClientLimits;
  /** Which rate gate of the process-wide registry this client shares (default: baseUrl + clientId). */
  rateLimitKey?: string;
  /** A rate gate of your own (tests, or a shared one such as src/scale-out's Redis gate for several processes of one account): used instead of the registry's. */
  rateGate?: AccountGate;
  /** Retries after 5xx, network errors and timeouts (default 3); per call too. */
  maxRetries?: number;
  /** Retries after a 429, each after waiting for the reset (default 8). */
  maxRateLimitRetries?: number;
  /** Per attempt, body included (default 30 000). */
  timeoutMs?: number;
  backoff?: Partial<BackoffOptions>;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Off unless given; `console` works. Secrets are never logged. */
  logger?: ClientLogger;
  /** Told of every exchange with the service, token calls included (operation, status, time, request id): metrics hook here. */
  onCall?: CallObserver;
  /** Sent on every request: x-sandbox-mode, x-cli-key, x-sandbox-as-of, … */
  headers?: Record<string, string>;
  /** zod without `new Function`, for pages whose CSP forbids eval (see jitless.ts). Default 'auto'. */
  jitless?: boolean | 'auto';
  /** Chunks in flight at once in valueAll / scoreAll (default 8). */
  concurrency?: number;
}

export interface ResolvedOptions {
  baseUrl: string;
  gateKey: string;
  gateLimits: GateLimits;
  fetch: FetchLike;
  maxRetries: number;
  maxRateLimitRetries: number;
  timeoutMs: number;
  backoff: BackoffOptions;
  headers: Record<string, string>;
}

export class ConfigurationError extends ServiceError {
  constructor(message: string, field: string) {
    super({ status: 0, type: 'invalid_configuration', message, field });
  }
}

export function resolveOptions(o: ClientOptions, accountKey: (baseUrl: string, clientId: string | undefined) => string): ResolvedOptions {
  if (typeof o.baseUrl !== 'string' || !/^https?:\/\//i.test(o.baseUrl)) {
    throw new ConfigurationError('baseUrl must be the service address, e.g. https://api.example.com/v1', 'baseUrl');
  }
  if ((o.clientId === undefined) !== (o.clientSecret === undefined)) {
    throw new ConfigurationError('clientId and clientSecret go together: give both, or neither with a tokenProvider', o.clientId === undefined ? 'clientId' : 'clientSecret');
  }
  if (o.clientId !== undefined && o.tokenProvider) {
    throw new ConfigurationError('give either clientId/clientSecret or a tokenProvider, not both', 'tokenProvider');
  }
  const fetchImpl = o.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new ConfigurationError('no fetch is available here: pass one as the fetch option', 'fetch');
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  const tier = o.tier ? TIERS[o.tier] : undefined;
  if (o.tier && !tier) throw new ConfigurationError(`tier '${o.tier}' is not one of ${Object.keys(TIERS).join(', ')}`, 'tier');
  return {
    baseUrl,
    gateKey: o.rateLimitKey ?? accountKey(baseUrl, o.clientId),
    gateLimits: {
      perMinute: tier?.perMinute,
      perDay: tier?.perDay,
      ceilingPerMinute: o.limits?.perMinute,
      ceilingPerDay: o.limits?.perDay,
      minuteMs: o.limits?.minuteMs ?? 60_000,
      dayMs: o.limits?.dayMs ?? 86_400_000,
      marginMs: o.limits?.marginMs,
    },
    // Called through a closure so a browser's fetch keeps its `this` (an unbound window.fetch throws).
    fetch: o.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    maxRetries: o.maxRetries ?? 3,
    maxRateLimitRetries: o.maxRateLimitRetries ?? 8,
    timeoutMs: o.timeoutMs ?? 30_000,
    backoff: { ...DEFAULT_BACKOFF, ...o.backoff },
    headers: { ...o.headers },
  };
}
