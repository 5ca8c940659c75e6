import { isTierName, type TierName } from '../../src/wire';
import { hasUserInfo, redactUrl } from '../../src/redact-url';
import { BrandError, loadBrand, type Brand } from '../../src/brand';
import { isDatabaseOff } from '../../src/db/paths';
import { DEPLOYMENT_KEY_RULE, isValidDeploymentKey } from '../contract/deployment-key';
import { OFFICE_JS_SOURCES, type OfficeJsSource } from './office-js';
import { AuthConfigError, authSettingsFromEnv, checkAuthForAddress, type AuthSettings } from './auth/settings';
import { DEFAULT_AUDIT_FILE } from './audit-log';
import path from 'node:path';
import { PortfolioAccessError, readPortfolioAccessFile, type PortfolioAccessFile } from './portfolio-access';

/** The host's settings as read from the environment (docs/addin.md lists them). */
export interface HostEnvConfig {
  port: number;
  host: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  deploymentKey?: string;
  /** ADDIN_AUTH and its settings (docs/addin.md, "Who may use the add-in"). */
  auth: AuthSettings;
  /** ADDIN_AUDIT_LOG, default addin-audit.jsonl in the working directory. */
  auditLog: string;
  /** ADDIN_USER_DAILY_CAP: upstream calls one user may cause per day; 0 turns the per-user cap off. */
  perUserDailyCap?: number;
  /** ADDIN_USER_DAILY_SHARE: without a cap, the percent of the day's budget one user may spend (default 25 with sign-in). */
  userDailySharePercent?: number;
  /** Where office.js comes from: Microsoft's CDN (default) or the host's npm copy. */
  officeJs: OfficeJsSource;
  /** The origin users reach the host at (ADDIN_ORIGIN), also written into the manifest. */
  publicOrigin?: string;
  /** SVC_REDIS_URL: replicas share the account's rate budget and answers through it (docs/scale-out.md). */
  redisUrl?: string;
  /** SVC_DB_URL: the firm's history database (a postgres:// URL, or an embedded database's folder); /readyz checks it answers. */
  dbUrl?: string;
  /** ADDIN_PORTFOLIO_ACCESS read and checked: which portfolios' history each role, group or the deployment key may read. */
  portfolioAccess?: PortfolioAccessFile;
  /** ADDIN_BRAND_FILE: the firm's brand file, read and checked at start-up; "Export report" draws the PDF and xlsx in it. */
  brand?: Brand;
  /** Undefined: start the embedded sandbox. */
  service?: { baseUrl: string; clientId: string; clientSecret: string; tier?: TierName; limits?: { minuteMs: number } };
}

export class HostConfigError extends Error {
  override name = 'HostConfigError';
}

/**
 * ADDIN_BRAND_FILE read at start-up: a brand file that cannot be used stops the host, naming the
 * key or file. ADDIN_BRAND_ROOT is the host's --brand-root: the folder the brand's files must be in.
 */
function brandFromEnv(env: NodeJS.ProcessEnv): Brand | undefined {
  const file = env.ADDIN_BRAND_FILE?.trim();
  if (!file) return undefined;
  try {
    return loadBrand(file, process.cwd(), { root: env.ADDIN_BRAND_ROOT?.trim() || undefined });
  } catch (e) {
    if (e instanceof BrandError) throw new HostConfigError(`ADDIN_BRAND_FILE: ${e.message}`);
    throw e;
  }
}

/**
 * A service address with a user name or password in it would put a credential wherever the
 * address is shown (logs, the status route): refused. The credentials belong in
 * SVC_CLIENT_ID / SVC_CLIENT_SECRET.
 */
export function checkServiceUrl(value: string, name = 'SVC_BASE_URL'): void {
  // Either reading of user info counts (src/redact-url.ts): a password with / @ # must not pass as a host, nor be quoted.
  if (hasUserInfo(value)) {
    throw new HostConfigError(`${name} must not contain a user name or password (found in ${redactUrl(value)}); put the account in SVC_CLIENT_ID and SVC_CLIENT_SECRET.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HostConfigError(`${name} must be the service address including /v1, e.g. https://api.example.com/v1.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new HostConfigError(`${name} must be an http:// or https:// address including /v1, e.g. https://api.example.com/v1.`);
}

export function hostConfigFromEnv(env: NodeJS.ProcessEnv): HostEnvConfig {
  const port = Number(env.ADDIN_PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new HostConfigError(`ADDIN_PORT must be a port number (got "${env.ADDIN_PORT}").`);
  if ((env.ADDIN_TLS_CERT === undefined) !== (env.ADDIN_TLS_KEY === undefined)) {
    throw new HostConfigError('ADDIN_TLS_CERT and ADDIN_TLS_KEY go together: give both PEM files, or neither to use the Office dev certificate.');
  }
  const key = env.ADDIN_DEPLOYMENT_KEY?.trim() || undefined;
  if (key !== undefined && !isValidDeploymentKey(key)) throw new HostConfigError(`ADDIN_DEPLOYMENT_KEY: ${DEPLOYMENT_KEY_RULE}`);
  const officeJs = (env.ADDIN_OFFICE_JS ?? 'cdn') as OfficeJsSource;
  if (!OFFICE_JS_SOURCES.includes(officeJs)) throw new HostConfigError(`ADDIN_OFFICE_JS must be cdn (Microsoft's CDN, the default) or local (the host's npm copy) (got "${env.ADDIN_OFFICE_JS}").`);
  let publicOrigin: string | undefined;
  if (env.ADDIN_ORIGIN) {
    try {
      publicOrigin = new URL(env.ADDIN_ORIGIN).origin;
    } catch {
      throw new HostConfigError(`ADDIN_ORIGIN must be an origin such as https://addin.example.com (got "${env.ADDIN_ORIGIN}").`);
    }
  }
  const host = env.ADDIN_HOST ?? '127.0.0.1';
  let auth: AuthSettings;
  try {
    auth = authSettingsFromEnv(env);
    checkAuthForAddress(auth, host);
  } catch (err) {
    if (err instanceof AuthConfigError) throw new HostConfigError(err.message);
    throw err;
  }
  let perUserDailyCap: number | undefined;
  if (env.ADDIN_USER_DAILY_CAP?.trim()) {
    perUserDailyCap = Number(env.ADDIN_USER_DAILY_CAP);
    if (!Number.isInteger(perUserDailyCap) || perUserDailyCap < 0) throw new HostConfigError(`ADDIN_USER_DAILY_CAP must be a whole number of service calls per user per day, or 0 for no per-user cap (got "${env.ADDIN_USER_DAILY_CAP}").`);
  }
  let userDailySharePercent: number | undefined;
  if (env.ADDIN_USER_DAILY_SHARE?.trim()) {
    userDailySharePercent = Number(env.ADDIN_USER_DAILY_SHARE.trim().replace(/%$/, ''));
    if (!Number.isFinite(userDailySharePercent) || userDailySharePercent < 0 || userDailySharePercent > 100) throw new HostConfigError(`ADDIN_USER_DAILY_SHARE must be the percent of the day's budget one user may spend, 0 to 100 (0: no share) (got "${env.ADDIN_USER_DAILY_SHARE}").`);
    if (perUserDailyCap !== undefined) throw new HostConfigError('ADDIN_USER_DAILY_CAP and ADDIN_USER_DAILY_SHARE both limit a user\'s day: set one of them.');
  }
  const auditLog = path.resolve(env.ADDIN_AUDIT_LOG?.trim() || DEFAULT_AUDIT_FILE);
  const config: HostEnvConfig = { port, host, tlsCertFile: env.ADDIN_TLS_CERT, tlsKeyFile: env.ADDIN_TLS_KEY, deploymentKey: key, auth, auditLog, perUserDailyCap, userDailySharePercent, officeJs, publicOrigin, brand: brandFromEnv(env) };
  if (env.SVC_BASE_URL) {
    checkServiceUrl(env.SVC_BASE_URL);
    if (!env.SVC_CLIENT_ID || !env.SVC_CLIENT_SECRET) throw new HostConfigError('SVC_BASE_URL needs SVC_CLIENT_ID and SVC_CLIENT_SECRET (the host signs in with them; the browser never sees them).');
    if (env.SVC_TIER !== undefined && !isTierName(env.SVC_TIER)) throw new HostConfigError(`SVC_TIER must be starter, pro or enterprise (got "${env.SVC_TIER}").`);
    config.service = { baseUrl: env.SVC_BASE_URL, clientId: env.SVC_CLIENT_ID, clientSecret: env.SVC_CLIENT_SECRET, tier: env.SVC_TIER as TierName | undefined };
    // SVC_MINUTE_MS: the service's rate window when it is not a minute (a sandbox started with --minute-ms, as svc-report's --minute-ms).
    if (env.SVC_MINUTE_MS?.trim()) {
      const minuteMs = Number(env.SVC_MINUTE_MS);
      if (!Number.isInteger(minuteMs) || minuteMs < 100) throw new HostConfigError(`SVC_MINUTE_MS must be the service's rate window in whole milliseconds, at least 100 (got "${env.SVC_MINUTE_MS}").`);
      config.service.limits = { minuteMs };
    }
  }
  const accessFile = env.ADDIN_PORTFOLIO_ACCESS?.trim();
  if (accessFile) {
    try {
      config.portfolioAccess = readPortfolioAccessFile(path.resolve(accessFile));
    } catch (e) {
      if (e instanceof PortfolioAccessError) throw new HostConfigError(e.message);
      throw e;
    }
  }
  if (env.SVC_DB_URL?.trim() && !isDatabaseOff(env.SVC_DB_URL)) config.dbUrl = env.SVC_DB_URL.trim();
  if (env.SVC_REDIS_URL?.trim()) {
    const redisUrl = env.SVC_REDIS_URL.trim();
    if (!/^rediss?:\/\/[^/]/.test(redisUrl)) throw new HostConfigError('SVC_REDIS_URL must be a Redis URL such as redis://10.0.0.5:6379 (rediss:// for TLS).');
    if (!config.service) throw new HostConfigError('SVC_REDIS_URL shares one service account between replicas: set SVC_BASE_URL, SVC_CLIENT_ID and SVC_CLIENT_SECRET too (the embedded sandbox lives in one process).');
    config.redisUrl = redisUrl;
  }
  return config;
}
