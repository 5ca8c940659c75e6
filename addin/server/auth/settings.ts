import type { BackoffSettings } from './backoff';
import { DEPLOYMENT_KEY_RULE, isValidDeploymentKey } from '../../contract/deployment-key';

/** Who may use the host (ADDIN_AUTH): the firm's Entra ID sign-in, a shared deployment key, or nobody checked (127.0.0.1 only). */
export type AuthMode = 'entra' | 'key' | 'none';
export const AUTH_MODES: readonly AuthMode[] = ['entra', 'key', 'none'];

/** The one address `none` is allowed on: the embedded development default. */
export const LOOPBACK = '127.0.0.1';

export interface EntraSettings {
  /** The token issuer, exactly as tokens carry it in `iss` (https://login.microsoftonline.com/<tenant>/v2.0). */
  issuer: string;
  /** Accepted `aud` values: the add-in API's application (client) id and/or its application id URI. */
  audiences: string[];
  /** A role the token's `roles` claim must hold, else 403. */
  role?: string;
  /** The add-in's client id (for MSAL in the pages and the manifest's WebApplicationInfo); defaults to the first audience that is not a URI. */
  clientId?: string;
  /** Signature algorithms accepted (never `none`). Default RS256, what Entra ID signs with. */
  algorithms?: string[];
  /** Allowed clock difference for exp/nbf, seconds. Default 60. */
  clockToleranceSec?: number;
  /** Least time between two JWKS fetches caused by unknown key ids, ms. Default 30 s (tests use 0). */
  jwksCooldownMs?: number;
  /** While discovery or the keys fail: the first wait before asking again, doubling to the cap. Default 1 s to 5 min. */
  providerBackoff?: BackoffSettings;
  /** The backoff's clock (tests). */
  now?: () => number;
}

export type AuthSettings = { mode: 'none' } | { mode: 'key'; key: string } | { mode: 'entra'; entra: EntraSettings };

export class AuthConfigError extends Error {
  override name = 'AuthConfigError';
}

/** The settings Entra ID's shared endpoints use instead of one tenant: a token's issuer would then be any tenant's. */
const NOT_A_TENANT = new Set(['common', 'organizations', 'consumers']);

export function entraIssuer(tenant: string): string {
  const t = tenant.trim();
  if (NOT_A_TENANT.has(t.toLowerCase())) throw new AuthConfigError(`ADDIN_AUTH_TENANT must be your tenant's id or domain (e.g. contoso.onmicrosoft.com), not "${t}": the host accepts one tenant's users.`);
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,253}$/.test(t)) throw new AuthConfigError(`ADDIN_AUTH_TENANT must be a tenant id (a GUID) or domain such as contoso.onmicrosoft.com (got "${t}").`);
  return `https://login.microsoftonline.com/${t}/v2.0`;
}

/** An issuer URL the host may discover keys from: https, or http on 127.0.0.1 for tests. */
export function checkIssuer(value: string, name = 'ADDIN_AUTH_ISSUER'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthConfigError(`${name} must be an OpenID issuer URL such as https://login.microsoftonline.com/<tenant>/v2.0 (got "${value}").`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') throw new AuthConfigError(`${name} must be a plain issuer URL, without a user name, password, query or fragment.`);
  if (url.protocol === 'http:' && url.hostname !== LOOPBACK) throw new AuthConfigError(`${name} must be https:// (an http:// issuer is accepted only on ${LOOPBACK}, for tests).`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AuthConfigError(`${name} must be an https:// URL.`);
  return value.replace(/\/+$/, '');
}

/** The `none` mode is refused anywhere but 127.0.0.1: anyone who can reach the host would spend the firm's account. */
export function checkAuthForAddress(auth: AuthSettings, bindHost: string): void {
  if (auth.mode === 'none' && bindHost !== LOOPBACK) {
    throw new AuthConfigError(
      `ADDIN_AUTH=none (no sign-in) is allowed only when the host listens on ${LOOPBACK}, and ADDIN_HOST is ${bindHost}: set ADDIN_AUTH=entra (the firm's Microsoft Entra ID sign-in) or ADDIN_AUTH=key with ADDIN_DEPLOYMENT_KEY, or listen on ${LOOPBACK}.`,
    );
  }
  if (auth.mode === 'key' && !isValidDeploymentKey(auth.key)) throw new AuthConfigError(`ADDIN_DEPLOYMENT_KEY: ${DEPLOYMENT_KEY_RULE}`);
  if (auth.mode === 'entra') {
    checkIssuer(auth.entra.issuer, 'The issuer');
    if (auth.entra.audiences.length === 0) throw new AuthConfigError('ADDIN_AUTH_AUDIENCE is required with ADDIN_AUTH=entra.');
    if ((auth.entra.algorithms ?? []).some((a) => a.toLowerCase() === 'none')) throw new AuthConfigError('The algorithm "none" is never accepted.');
  }
}

/**
 * ADDIN_AUTH and its settings. Unset: `key` when ADDIN_DEPLOYMENT_KEY is given, else `none` (today's
 * default, for the demo and 127.0.0.1); checkAuthForAddress then refuses `none` off 127.0.0.1.
 */
export function authSettingsFromEnv(env: NodeJS.ProcessEnv): AuthSettings {
  const key = env.ADDIN_DEPLOYMENT_KEY?.trim() || undefined;
  const raw = env.ADDIN_AUTH?.trim().toLowerCase() || undefined;
  const mode: AuthMode = raw === undefined ? (key ? 'key' : 'none') : (raw as AuthMode);
  if (!AUTH_MODES.includes(mode)) throw new AuthConfigError(`ADDIN_AUTH must be entra (the firm's Microsoft Entra ID sign-in), key (ADDIN_DEPLOYMENT_KEY) or none (127.0.0.1 only) (got "${env.ADDIN_AUTH}").`);
  if (mode === 'none') {
    if (key) throw new AuthConfigError('ADDIN_AUTH=none and ADDIN_DEPLOYMENT_KEY contradict each other: choose ADDIN_AUTH=key, or remove the key.');
    return { mode };
  }
  if (mode === 'key') {
    if (!key) throw new AuthConfigError('ADDIN_AUTH=key needs ADDIN_DEPLOYMENT_KEY.');
    if (!isValidDeploymentKey(key)) throw new AuthConfigError(`ADDIN_DEPLOYMENT_KEY: ${DEPLOYMENT_KEY_RULE}`);
    return { mode, key };
  }
  if (key) throw new AuthConfigError('ADDIN_AUTH=entra replaces the deployment key: remove ADDIN_DEPLOYMENT_KEY.');
  const tenant = env.ADDIN_AUTH_TENANT?.trim() || undefined;
  const issuerSetting = env.ADDIN_AUTH_ISSUER?.trim() || undefined;
  if ((tenant === undefined) === (issuerSetting === undefined)) throw new AuthConfigError('ADDIN_AUTH=entra needs exactly one of ADDIN_AUTH_TENANT (your Entra tenant id or domain) or ADDIN_AUTH_ISSUER (any OpenID issuer).');
  const issuer = tenant !== undefined ? entraIssuer(tenant) : checkIssuer(issuerSetting!);
  const audiences = (env.ADDIN_AUTH_AUDIENCE ?? '').split(',').map((a) => a.trim()).filter((a) => a !== '');
  if (audiences.length === 0) throw new AuthConfigError("ADDIN_AUTH_AUDIENCE is required with ADDIN_AUTH=entra: the add-in API's application (client) id and/or its application id URI (api://…), comma-separated.");
  const role = env.ADDIN_AUTH_ROLE?.trim() || undefined;
  const clientId = env.ADDIN_AUTH_CLIENT_ID?.trim() || audiences.find((a) => !a.includes(':'));
  return { mode, entra: { issuer, audiences, role, clientId } };
}
