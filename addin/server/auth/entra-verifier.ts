import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { EntraSettings } from './settings';
import { AuthRefusal, type RequestUser } from './user';
import { reportProblem } from './request-context';

const SIGN_IN_AGAIN = 'sign in again in the SVC task pane';

/** The OpenID configuration fields the host needs. */
interface Discovery {
  issuer: string;
  jwks_uri: string;
}

/**
 * Validates the add-in's bearer tokens as Entra ID issues them: keys from the JWKS that the
 * issuer's OpenID configuration names (discovered once, then cached; fetched again when a token
 * names a key id the cached set lacks — key rotation — at most once per cooldown), signature,
 * iss, aud, exp/nbf with a small clock skew, an algorithm allow-list, and optionally an app role.
 */
export class EntraVerifier {
  private jwks: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  private readonly algorithms: string[];

  constructor(private readonly settings: EntraSettings) {
    this.algorithms = (settings.algorithms ?? ['RS256']).filter((a) => a.toLowerCase() !== 'none');
  }

  /** The user a bearer token stands for, or an AuthRefusal. */
  async verify(token: string): Promise<RequestUser> {
    const jwks = await this.keySet();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: this.settings.issuer,
        audience: this.settings.audiences,
        algorithms: this.algorithms,
        clockTolerance: this.settings.clockToleranceSec ?? 60,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw refusalFor(err);
    }
    const id = stringClaim(payload, 'oid') ?? payload.sub;
    if (!id) throw new AuthRefusal(401, 'invalid_token', `This sign-in names no user; ${SIGN_IN_AGAIN}.`);
    const role = this.settings.role;
    if (role !== undefined) {
      const roles = Array.isArray(payload.roles) ? payload.roles : [];
      if (!roles.includes(role)) throw new AuthRefusal(403, 'role_required', 'Your account is signed in but not allowed to use SVC: ask your administrator to assign you the add-in\'s app role.');
    }
    return { id, name: stringClaim(payload, 'name') ?? stringClaim(payload, 'preferred_username') ?? null, signedIn: true };
  }

  /** Discovered on first use; a failed discovery is retried by the next request rather than remembered. */
  private keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.jwks ??= this.discover().catch((err: unknown) => {
      this.jwks = undefined;
      throw err;
    });
    return this.jwks;
  }

  private async discover(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const issuer = this.settings.issuer;
    let doc: Discovery;
    try {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      doc = (await res.json()) as Discovery;
    } catch (err) {
      reportProblem(`[addin-host] the sign-in issuer's OpenID configuration could not be read (${issuer}): ${err instanceof Error ? err.message : String(err)}`);
      throw new AuthRefusal(503, 'sign_in_unavailable', 'The add-in host cannot reach the sign-in service to check your sign-in; try again shortly.');
    }
    // The configuration must be the issuer's own (OpenID Connect Discovery 1.0, section 4.3), its keys served over https (http on 127.0.0.1 for tests).
    if (doc.issuer !== issuer || typeof doc.jwks_uri !== 'string') {
      reportProblem(`[addin-host] the OpenID configuration at ${issuer} names another issuer or no jwks_uri: refused.`);
      throw new AuthRefusal(503, 'sign_in_unavailable', 'The add-in host cannot check sign-ins: its sign-in settings are wrong; tell your administrator.');
    }
    const jwksUrl = new URL(doc.jwks_uri);
    if (jwksUrl.protocol !== 'https:' && !(jwksUrl.protocol === 'http:' && jwksUrl.hostname === '127.0.0.1')) {
      throw new AuthRefusal(503, 'sign_in_unavailable', 'The add-in host cannot check sign-ins: its sign-in settings are wrong; tell your administrator.');
    }
    return createRemoteJWKSet(jwksUrl, { cooldownDuration: this.settings.jwksCooldownMs ?? 30_000, timeoutDuration: 10_000 });
  }
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const v = payload[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** What jose found wrong, as a sentence a user can act on; never the claim values or the configured ones. */
function refusalFor(err: unknown): AuthRefusal {
  if (err instanceof AuthRefusal) return err;
  if (err instanceof errors.JWTExpired) return new AuthRefusal(401, 'token_expired', `Your sign-in has expired; ${SIGN_IN_AGAIN}.`);
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new AuthRefusal(401, 'token_not_yet_valid', "Your sign-in is not valid yet; check this computer's clock, then sign in again.");
    if (err.claim === 'iss' || err.claim === 'aud') return new AuthRefusal(401, 'invalid_token', `This sign-in was not issued for SVC in your firm (another organisation or application); ${SIGN_IN_AGAIN}.`);
    return new AuthRefusal(401, 'invalid_token', `Your sign-in could not be accepted; ${SIGN_IN_AGAIN}.`);
  }
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) {
    reportProblem(`[addin-host] the sign-in keys could not be fetched: ${err.message}`);
    return new AuthRefusal(503, 'sign_in_unavailable', 'The add-in host cannot reach the sign-in service to check your sign-in; try again shortly.');
  }
  // Bad signature, unknown key id, an algorithm not allowed (none included), a malformed token.
  return new AuthRefusal(401, 'invalid_token', `Your sign-in could not be verified; ${SIGN_IN_AGAIN}.`);
}
