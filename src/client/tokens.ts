import type { TokenResponse } from '../wire';
import { AbortedError } from './errors';
import { log, type ClientLogger } from './logger';
import { raceAbort } from './sleep';
import { jwtExpiry } from './token-expiry';

/**
 * The add-in's host case: the host hands out tokens (it holds the credentials). Return
 * undefined when the host adds the Authorization header itself. `forceRefresh` is true after
 * the service refused the previous token.
 */
export type TokenProvider = (ctx: { forceRefresh: boolean; signal?: AbortSignal }) =>
  | string
  | undefined
  | null
  | Promise<string | undefined | null>;

/** Where a request's bearer token comes from. */
export interface TokenSource {
  /** The token to send, or undefined for no Authorization header. */
  token(signal?: AbortSignal): Promise<string | undefined>;
  /** Makes sure a token is at hand before a request queues for its slot (a no-op for the host's tokens). */
  warm(signal?: AbortSignal): Promise<void>;
  /** The service refused `token` (401): the next call to token() must bring a fresh one. */
  invalidate(token: string | undefined): void;
  /** Whether a refused token can be replaced (false when the host authenticates for us). */
  readonly canRenew: boolean;
}

/** The two token operations, sent by the transport outside the rate gate (they are not counted). */
export interface TokenEndpoint {
  issue(): Promise<TokenResponse>;
  refresh(refreshToken: string): Promise<TokenResponse>;
}

interface Held {
  access: string;
  refresh: string | undefined;
  /** From here on a call still uses this token but starts a renewal in the background. */
  renewAt: number;
  /** From here on a call waits for a new token. */
  staleAt: number;
}

/**
 * Client-credentials tokens (google-auth-library style): one fetch in flight however many
 * calls want a token; renewed in the background shortly before expiry (the last 10% of the
 * lifetime, at least min(30 s, half of it)); renewed with the refresh token, which rotates,
 * falling back to the client credentials when the refresh is refused.
 */
export class CredentialsTokenSource implements TokenSource {
  readonly canRenew = true;
  private held: Held | undefined;
  private inflight: Promise<Held> | undefined;

  constructor(
    private readonly endpoint: TokenEndpoint,
    private readonly logger: ClientLogger | undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  async token(signal?: AbortSignal): Promise<string> {
    const now = this.clock();
    const h = this.held;
    if (h && now < h.renewAt) return h.access;
    if (h && now < h.staleAt) {
      // Still good for a while: renew without making this call wait.
      this.renew().catch(() => undefined);
      return h.access;
    }
    return (await raceAbort(this.renew(), signal)).access;
  }

  async warm(signal?: AbortSignal): Promise<void> {
    await this.token(signal);
  }

  invalidate(token: string | undefined): void {
    const h = this.held;
    if (h && h.access === token) this.held = { ...h, renewAt: -Infinity, staleAt: -Infinity };
  }

  private renew(): Promise<Held> {
    this.inflight ??= this.fetchNew().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchNew(): Promise<Held> {
    const sentAt = this.clock();
    const refresh = this.held?.refresh;
    if (refresh) {
      try {
        const held = this.adopt(await this.endpoint.refresh(refresh), sentAt);
        log(this.logger, 'debug', 'access token renewed with the refresh token');
        return held;
      } catch (e) {
        if (e instanceof AbortedError) throw e;
        // A spent or refused refresh token: the credentials still work.
        log(this.logger, 'info', 'refresh refused; requesting a new token with the client credentials', { reason: (e as Error).message });
        if (this.held?.refresh === refresh) this.held = { ...this.held, refresh: undefined };
      }
    }
    const held = this.adopt(await this.endpoint.issue(), sentAt);
    log(this.logger, 'debug', 'access token issued');
    return held;
  }

  private adopt(t: TokenResponse, sentAt: number): Held {
    // Lifetime counted from when the request left, and never beyond the token's own exp.
    const expiresAt = Math.min(sentAt + t.expires_in * 1000, jwtExpiry(t.access_token) ?? Infinity);
    const lifetime = Math.max(0, expiresAt - sentAt);
    const renewMargin = Math.max(lifetime * 0.1, Math.min(30_000, lifetime / 2));
    const staleMargin = Math.min(5_000, lifetime * 0.2);
    this.held = {
      access: t.access_token,
      refresh: t.refresh_token ?? this.held?.refresh,
      renewAt: expiresAt - renewMargin,
      staleAt: expiresAt - staleMargin,
    };
    return this.held;
  }
}

/** Tokens from the host (or none at all when the host adds the header). */
export class ProviderTokenSource implements TokenSource {
  private forceNext = false;
  constructor(private readonly provider: TokenProvider | undefined) {}

  get canRenew(): boolean {
    return this.provider !== undefined;
  }

  async token(signal?: AbortSignal): Promise<string | undefined> {
    if (!this.provider) return undefined;
    const forceRefresh = this.forceNext;
    this.forceNext = false;
    return (await this.provider({ forceRefresh, signal })) ?? undefined;
  }

  async warm(): Promise<void> {}

  invalidate(): void {
    this.forceNext = true;
  }
}
