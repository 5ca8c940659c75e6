import { createHash, createSecretKey, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { parseScope, type Scope, type TokenResponse } from '../../wire';
import type { Account } from '../accounts';
import { HttpError, rateLimitedError } from './http-error';
import { SignInThrottle } from './sign-in-throttle';

/** What a verified access token says about its caller. */
export interface Caller {
  account: Account;
  scopes: readonly Scope[];
}

interface VerifiedToken {
  clientId: string;
  scopes: readonly Scope[];
  /** exp claim, epoch seconds. */
  exp: number;
  /** The refresh family the token was issued in (fam claim). */
  family: string;
}

interface RefreshEntry {
  clientId: string;
  scopes: readonly Scope[];
  family: string;
}

/** Refresh tokens and verified access tokens kept at most this many (oldest dropped first). */
const MAX_REMEMBERED = 100_000;

/**
 * Issues and checks credentials: HS256 JWT access tokens signed with a key made for this
 * instance, and opaque single-use refresh tokens that rotate on every refresh.
 *
 * Every client-credentials grant starts a refresh family; each refresh spends its token and
 * issues the next one of the same family. A spent refresh token presented again means two
 * parties hold the chain (OAuth 2.0 Security BCP, refresh token reuse detection): the whole
 * family is revoked, its live refresh token and every access token issued in it.
 */
export class TokenService {
  private readonly key: KeyObject = createSecretKey(randomBytes(32));
  private readonly refreshTokens = new Map<string, RefreshEntry>();
  /** Spent refresh tokens and their family, so a replay is recognised. */
  private readonly spentRefreshTokens = new Map<string, string>();
  /** The one live refresh token of each family. */
  private readonly liveTokenOfFamily = new Map<string, string>();
  private readonly revokedFamilies = new Map<string, true>();
  /** Successful verifications only, keyed by the whole token string, so a forged one never hits. */
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    private readonly accounts: ReadonlyMap<string, Account>,
    private readonly ttlSeconds: number,
    private readonly throttle: SignInThrottle = new SignInThrottle(),
  ) {}

  async issueForCredentials(clientId: string, clientSecret: string): Promise<TokenResponse> {
    const waitMs = this.throttle.waitMs(clientId);
    if (waitMs > 0) throw rateLimitedError(Math.ceil(waitMs / 1000), 'too many failed sign-ins for this client_id');
    const account = this.accounts.get(clientId);
    // Compare even for an unknown client so timing does not tell which part was wrong.
    const secretOk = constantTimeEqual(clientSecret, account?.secret ?? '\0no-account');
    if (!account || !secretOk) {
      this.throttle.failed(clientId);
      throw new HttpError('unauthorised', 'client_id or client_secret is not valid', { action: 'reauthenticate' });
    }
    this.throttle.succeeded(clientId);
    return this.issue(account, account.scopes, randomUUID());
  }

  async refresh(refreshToken: string): Promise<TokenResponse> {
    const entry = this.refreshTokens.get(refreshToken);
    if (!entry) {
      const replayedFamily = this.spentRefreshTokens.get(refreshToken);
      if (replayedFamily !== undefined) {
        this.revokeFamily(replayedFamily);
        throw new HttpError(
          'unauthorised',
          'refresh_token was already used; every token issued from it is now revoked: request a new token with your client credentials',
          { action: 'reauthenticate' },
        );
      }
      throw new HttpError('unauthorised', 'refresh_token is not valid or was revoked; request a new token with your client credentials', {
        action: 'reauthenticate',
      });
    }
    this.refreshTokens.delete(refreshToken);
    remember(this.spentRefreshTokens, refreshToken, entry.family);
    const account = this.accounts.get(entry.clientId);
    if (!account) throw new HttpError('unauthorised', 'the account of this refresh_token no longer exists', { action: 'reauthenticate' });
    return this.issue(account, entry.scopes, entry.family);
  }

  private revokeFamily(family: string): void {
    remember(this.revokedFamilies, family, true);
    const live = this.liveTokenOfFamily.get(family);
    if (live !== undefined) this.refreshTokens.delete(live);
    this.liveTokenOfFamily.delete(family);
  }

  /** The caller behind an Authorization header, or a 401 saying what to do. */
  async authenticate(header: string | undefined): Promise<Caller> {
    const token = bearerToken(header);
    const nowSeconds = Math.floor(Date.now() / 1000);
    let v = this.verified.get(token);
    if (!v) {
      v = await this.verify(token);
      remember(this.verified, token, v);
    }
    // Same rule as jose: expired once exp <= now (seconds).
    if (v.exp <= nowSeconds) {
      this.verified.delete(token);
      throw expiredError();
    }
    if (this.revokedFamilies.has(v.family)) {
      throw new HttpError('unauthorised', 'the access token was revoked (its refresh token was used twice); request a new token with your client credentials', {
        action: 'reauthenticate',
        headers: INVALID_TOKEN,
      });
    }
    const account = this.accounts.get(v.clientId);
    if (!account) throw new HttpError('unauthorised', 'the access token names an unknown account', { action: 'reauthenticate', headers: INVALID_TOKEN });
    return { account, scopes: v.scopes };
  }

  private async verify(token: string): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat', 'fam'] });
      return { clientId: String(payload.sub), scopes: parseScope(typeof payload.scope === 'string' ? payload.scope : ''), exp: payload.exp!, family: String(payload.fam) };
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw expiredError();
      throw new HttpError('unauthorised', 'the access token is not valid (bad signature, algorithm or claims); request a new token', {
        action: 'reauthenticate',
        headers: INVALID_TOKEN,
      });
    }
  }

  private async issue(account: Account, scopes: readonly Scope[], family: string): Promise<TokenResponse> {
    const iat = Math.floor(Date.now() / 1000);
    const scope = scopes.join(' ');
    const access_token = await new SignJWT({ scope, tier: account.tier, fam: family })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(account.clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.key);
    const refresh_token = `rt_${randomBytes(32).toString('base64url')}`;
    remember(this.refreshTokens, refresh_token, { clientId: account.clientId, scopes, family });
    remember(this.liveTokenOfFamily, family, refresh_token);
    return { access_token, refresh_token, token_type: 'Bearer', expires_in: this.ttlSeconds, scope };
  }
}

function bearerToken(header: string | undefined): string {
  if (!header) {
    throw new HttpError('unauthorised', 'Authorization header is missing; send Authorization: Bearer <access_token>', {
      action: 'reauthenticate',
      headers: { 'www-authenticate': 'Bearer realm="svc-sandbox"' },
    });
  }
  const m = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
  if (!m) throw new HttpError('unauthorised', 'Authorization header must be Bearer <access_token>', { action: 'reauthenticate', headers: INVALID_TOKEN });
  return m[1]!;
}

function expiredError(): HttpError {
  return new HttpError('unauthorised', 'the access token has expired; renew it with POST /auth/refresh', { action: 'refresh_token', headers: INVALID_TOKEN });
}

/** RFC 6750: a refused bearer token says so in WWW-Authenticate. */
const INVALID_TOKEN = { 'www-authenticate': 'Bearer realm="svc-sandbox", error="invalid_token"' };

/** Equal-length digests so timingSafeEqual never short-circuits on length. */
function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value!);
}
