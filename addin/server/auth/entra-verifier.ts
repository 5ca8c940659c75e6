import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { EntraSettings } from './settings';
import { AuthRefusal, type RequestUser } from './user';
import { reportProblem } from './request-context';
import { Backoff } from './backoff';
import { hostText } from '../host-text';


/** The OpenID configuration fields the host needs. */
interface Discovery {
  issuer: string;
  jwks_uri: string;
}

/** Why sign-ins cannot be checked: the provider does not answer, or answers with settings the host refuses. */
type Outage = 'unreachable' | 'misconfigured';

/** A failed discovery, already reported to the operator. */
class ProviderOutage extends Error {
  constructor(readonly outage: Outage) {
    super(`the sign-in provider is ${outage}`);
  }
}

type RemoteKeys = ReturnType<typeof createRemoteJWKSet>;

/**
 * Validates the add-in's bearer tokens as Entra ID issues them: keys from the JWKS that the
 * issuer's OpenID configuration names (discovered once, then cached; fetched again when a token
 * names a key id the cached set lacks — key rotation — at most once per cooldown), signature,
 * iss, aud, exp/nbf with a small clock skew, an algorithm allow-list, and optionally an app role.
 *
 * While the provider fails (discovery or keys), it is not asked again on every request: each
 * failure doubles the wait before the next attempt (1 s … 5 min), and requests meanwhile get the
 * remembered failure as a 503 at once — even a garbage token costs the provider nothing.
 */
export class EntraVerifier {
  private keys: JWTVerifyGetKey | undefined;
  private discovering: Promise<JWTVerifyGetKey> | undefined;
  private readonly algorithms: string[];
  private readonly discovery: Backoff<Outage>;
  private readonly keyFetches: Backoff<Outage>;

  constructor(private readonly settings: EntraSettings) {
    this.algorithms = (settings.algorithms ?? ['RS256']).filter((a) => a.toLowerCase() !== 'none');
    this.discovery = new Backoff(settings.providerBackoff, settings.now);
    this.keyFetches = new Backoff(settings.providerBackoff, settings.now);
  }

  /** The user a bearer token stands for, or an AuthRefusal. */
  async verify(token: string): Promise<RequestUser> {
    const keys = await this.keySet();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.settings.issuer,
        audience: this.settings.audiences,
        algorithms: this.algorithms,
        clockTolerance: this.settings.clockToleranceSec ?? 60,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw refusalFor(err);
    }
    const user = userOf(payload);
    if (!user) throw new AuthRefusal(401, 'invalid_token', hostText('addin.host_no_user'));
    const role = this.settings.role;
    if (role !== undefined) {
      const roles = Array.isArray(payload.roles) ? payload.roles : [];
      if (!roles.includes(role)) throw new AuthRefusal(403, 'role_required', hostText('addin.host_role_required'), { user });
    }
    return user;
  }

  /** Discovered on first use; a failed discovery is asked again only once its backoff is over. */
  private keySet(): Promise<JWTVerifyGetKey> {
    if (this.keys) return Promise.resolve(this.keys);
    const remembered = this.discovery.pending();
    if (remembered) return Promise.reject(this.unavailable(remembered, this.discovery));
    this.discovering ??= this.discover()
      .then(
        (keys) => {
          this.discovery.succeeded();
          this.keys = keys;
          return keys;
        },
        (err: unknown) => {
          const outage = err instanceof ProviderOutage ? err.outage : 'unreachable';
          this.discovery.failed(outage);
          throw this.unavailable(outage, this.discovery);
        },
      )
      .finally(() => {
        this.discovering = undefined;
      });
    return this.discovering;
  }

  /** The issuer's key set, or a ProviderOutage. */
  private async discover(): Promise<JWTVerifyGetKey> {
    const issuer = this.settings.issuer;
    let doc: Discovery;
    try {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      doc = (await res.json()) as Discovery;
    } catch (err) {
      reportProblem(`[addin-host] the sign-in issuer's OpenID configuration could not be read (${issuer}): ${err instanceof Error ? err.message : String(err)}; asking again in ${Math.ceil(this.discovery.nextWaitMs() / 1000)} s at the earliest.`);
      throw new ProviderOutage('unreachable');
    }
    // The configuration must be the issuer's own (OpenID Connect Discovery 1.0, section 4.3), its keys served over https (http on 127.0.0.1 for tests).
    if (doc === null || typeof doc !== 'object' || doc.issuer !== issuer || typeof doc.jwks_uri !== 'string') {
      reportProblem(`[addin-host] the OpenID configuration at ${issuer} names another issuer or no jwks_uri: refused.`);
      throw new ProviderOutage('misconfigured');
    }
    let jwksUrl: URL;
    try {
      jwksUrl = new URL(doc.jwks_uri);
    } catch {
      reportProblem(`[addin-host] the OpenID configuration at ${issuer} names a jwks_uri that is not a URL: refused.`);
      throw new ProviderOutage('misconfigured');
    }
    if (jwksUrl.protocol !== 'https:' && !(jwksUrl.protocol === 'http:' && jwksUrl.hostname === '127.0.0.1')) {
      reportProblem(`[addin-host] the OpenID configuration at ${issuer} names keys at a plain http:// address: refused.`);
      throw new ProviderOutage('misconfigured');
    }
    return this.keyGetter(createRemoteJWKSet(jwksUrl, { cooldownDuration: this.settings.jwksCooldownMs ?? 30_000, timeoutDuration: 10_000 }));
  }

  /**
   * jose's remote key set, behind the keys' own backoff: while fetching them fails, the keys
   * already fetched still answer the key ids they hold, and nothing else asks the provider.
   */
  private keyGetter(remote: RemoteKeys): JWTVerifyGetKey {
    return async (header, token) => {
      const remembered = this.keyFetches.pending();
      if (remembered) {
        const cached = remote.jwks();
        if (cached) {
          try {
            return await createLocalJWKSet(cached)(header, token);
          } catch (err) {
            if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
          }
        }
        throw this.unavailable(remembered, this.keyFetches);
      }
      try {
        const key = await remote(header, token);
        this.keyFetches.succeeded();
        return key;
      } catch (err) {
        if (!isFetchFailure(err)) throw err;
        // Requests failing together on one fetch count as one failure.
        if (!this.keyFetches.pending()) {
          reportProblem(`[addin-host] the sign-in keys could not be fetched: ${err instanceof Error ? err.message : String(err)}; asking again in ${Math.ceil(this.keyFetches.nextWaitMs() / 1000)} s at the earliest.`);
          this.keyFetches.failed('unreachable');
        }
        throw this.unavailable('unreachable', this.keyFetches);
      }
    };
  }

  private unavailable(outage: Outage, backoff: Backoff<Outage>): AuthRefusal {
    const wait = backoff.waitMs();
    if (outage === 'misconfigured') {
      return new AuthRefusal(503, 'sign_in_unavailable', hostText('addin.host_sign_in_misconfigured'), { retryAfterMs: wait });
    }
    return new AuthRefusal(503, 'sign_in_unavailable', hostText('addin.host_sign_in_unreachable', { seconds: String(Math.max(1, Math.ceil(wait / 1000))) }), { retryAfterMs: wait });
  }
}

/** A key fetch that failed for want of an answer (timeout, connection, non-200, not a key set), not a token naming an unknown key. */
function isFetchFailure(err: unknown): boolean {
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  if (!(err instanceof errors.JOSEError)) return true;
  return err.code === errors.JOSEError.code;
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const v = payload[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A claim that is a list of text (`roles`, `groups`); anything else in it is ignored. */
function stringsClaim(payload: JWTPayload, name: string): string[] {
  const v = payload[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The user a verified payload names: `oid`, else `sub`. */
function userOf(payload: JWTPayload): RequestUser | undefined {
  const id = stringClaim(payload, 'oid') ?? payload.sub;
  if (!id) return undefined;
  return { id, name: stringClaim(payload, 'name') ?? stringClaim(payload, 'preferred_username') ?? null, signedIn: true, claims: { roles: stringsClaim(payload, 'roles'), groups: stringsClaim(payload, 'groups') } };
}

/**
 * What jose found wrong, as a sentence a user can act on; never the claim values or the configured
 * ones. A claim check fails only after the signature verified, so the user it names is known (the
 * audit line names them).
 */
function refusalFor(err: unknown): AuthRefusal {
  if (err instanceof AuthRefusal) return err;
  const user = err instanceof errors.JWTClaimValidationFailed || err instanceof errors.JWTExpired ? userOf(err.payload) : undefined;
  if (err instanceof errors.JWTExpired) return new AuthRefusal(401, 'token_expired', hostText('addin.host_sign_in_expired'), { user });
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new AuthRefusal(401, 'token_not_yet_valid', hostText('addin.host_sign_in_not_yet_valid'), { user });
    if (err.claim === 'iss' || err.claim === 'aud') return new AuthRefusal(401, 'invalid_token', hostText('addin.host_sign_in_other_issuer'), { user });
    return new AuthRefusal(401, 'invalid_token', hostText('addin.host_sign_in_not_accepted'), { user });
  }
  // Bad signature, unknown key id, an algorithm not allowed (none included), a malformed token.
  return new AuthRefusal(401, 'invalid_token', hostText('addin.host_sign_in_not_verified'));
}
