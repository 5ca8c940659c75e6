import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { ADDIN_DIR } from '../paths';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceClient, type AccountGate } from '../../src/client';
import { API_PREFIX } from '../src/shared/host-connection';
import { accountKey } from '../../src/client';
import { sharedGate } from '../../src/client/gate-registry';
import { Authorizer } from './auth/authorize';
import { checkAuthForAddress, type AuthSettings } from './auth/settings';
import { anonymousUser, AuthRefusal } from './auth/user';
import { runInRequestContext, type RequestContext } from './auth/request-context';
import { UserLimits } from './auth/user-limits';
import { FairShareGate } from './fair-share';
import { userDailyCap } from './daily-share';
import type { UserDayCounts } from './user-day-counts';
import { AuditLog } from './audit-log';
import { HostApiCache } from './api-cache';
import type { SharedAnswers } from './redis-cache';
import type { ServiceTarget } from './service-target';
export type { ServiceTarget };
import { sendError, sendJson } from './http-util';
import { hostText, requestTranslator } from './host-text';
import { handleApi, sendServiceError } from './proxy';
import { sendFile, serveFile } from './static-files';
import { PublicFiles } from './public-files';
import { BadPathError, decodeRequestPath } from './request-path';
import { crossSiteRefusal, ownOrigins } from './cross-site';
import { OFFICE_JS_DIR, OFFICE_JS_LOCAL_PREFIX, pageForOfficeJs, securityHeaders, serviceWorkerCsp, type OfficeJsSource } from './office-js';
import { SERVICE_WORKER_PATH, staticCacheControl } from '../contract/page-cache';
import { IntervalLimit } from './interval-limit';
import { checkServiceUrl } from './config';
import { DEPLOYMENT_KEY_RULE, isValidDeploymentKey } from '../contract/deployment-key';
import { connectionStatus } from './status';
import { accountBudget } from './budget';
import { handleReportExport } from './report-export';
import type { Brand } from '../../src/brand';
import { staleManifestWarning } from './manifest-origin';
import { handleOpsRoute, Readiness, redisCheck, serviceCheck, type Log, type ReadinessCheck } from '../../src/ops';
import { noteRequestId } from './auth/request-context';
import { HostMetrics, type HostRoute } from './host-metrics';
import { Drain, type DrainOutcome } from './drain';
import { recordRequest } from './request-record';
import { handleHistory } from './history';
import type { HistorySource } from './history-source';
import { HISTORY_PATH, PERFORMANCE_PATH } from '../../src/wire';
import { handlePerformance } from './performance';
import { portfolioAccess, type PortfolioAccessFile } from './portfolio-access';
import { controlCharacterRefusal } from './query-check';

export { OFFICE_JS_DIR };

/** Clearing the shared cache makes every user's next cells go upstream: at most this often. */
const REFRESH_INTERVAL_MS = 30_000;
/** The pane asks its status every few seconds at most; a user asking more often than this is refused (429). */
const STATUS_PER_MINUTE = 30;
const NOT_SERVED = 'Nothing is served at this path.';

export interface AddinHostOptions {
  service: ServiceTarget;
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** HTTPS certificate and key (PEM). Required unless insecureHttp is set. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Plain HTTP, for tests only: allowed on 127.0.0.1 alone. */
  insecureHttp?: boolean;
  /** When set, every API and report request must carry it in the x-addin-deployment-key header (the same as auth: { mode: 'key', key }). */
  deploymentKey?: string;
  /** Who may use the host (ADDIN_AUTH); default `key` with deploymentKey, else `none` (127.0.0.1 only). */
  auth?: AuthSettings;
  /** The audit log (ADDIN_AUDIT_LOG): one JSON line per user request. None when unset (the CLI always sets one). */
  auditLog?: string;
  /** Rotates the audit log past this size (default 20 MiB). */
  auditMaxBytes?: number;
  /** Upstream calls one user may cause per day (ADDIN_USER_DAILY_CAP); 0: no per-user cap at all. Default: the daily share below. */
  perUserDailyCap?: number;
  /** Without perUserDailyCap: the percent of the account's day budget one user may spend (ADDIN_USER_DAILY_SHARE); default 25 with ADDIN_AUTH=entra, else 0 (off). */
  userDailySharePercent?: number;
  /** The firm's brand (ADDIN_BRAND_FILE) for exported PDF and xlsx reports; default the house look. */
  brand?: Brand;
  /** The built add-in (default addin/dist). */
  distDir?: string;
  /** Where the pages load office.js from (default Microsoft's CDN; `local` serves the npm copy). */
  officeJs?: OfficeJsSource;
  /** The origin users reach the host at (ADDIN_ORIGIN), when it is not the address it listens on (a reverse proxy). */
  publicOrigin?: string;
  /** Least time between two clears of the shared cache (default 30 s). */
  refreshIntervalMs?: number;
  /** Replicas of the host on one account (SVC_REDIS_URL, docs/scale-out.md): the account's shared rate gate and answers; `redis` answers readiness's ping. */
  shared?: { gate: AccountGate; answers: SharedAnswers; userCounts?: UserDayCounts; redis?: { ping(): Promise<unknown>; label: string } };
  /** JSON-line or text logs (ADDIN_LOG_FORMAT); none when unset. */
  log?: Log;
  /** How long /readyz keeps the service's answer (a sign-in) before asking again; default a minute. */
  readinessCheckMs?: number;
  /** More dependencies /readyz asks about (the database, when one is configured). */
  readinessChecks?: ReadinessCheck[];
  /** The firm's history database (SVC_DB_URL), for SVC.HISTORY through GET /addin/history; without it that route says there is none. */
  history?: HistorySource;
  /** ADDIN_PORTFOLIO_ACCESS read: which portfolios each role, group or the deployment key may read. None: only a `none`-mode (127.0.0.1) host serves history. */
  portfolioAccess?: PortfolioAccessFile;
  /** false: no series are recorded (the benchmark's baseline); the registry still exists, empty of figures. Default true. */
  metrics?: boolean;
}

export interface RunningAddinHost {
  /** https://HOST:PORT (or http:// in tests). */
  url: string;
  close(): Promise<void>;
  /** The host's shared API cache (its upstreamCalls count is read by tests and the benchmark). */
  cache: HostApiCache;
  client: ServiceClient;
  /** The account's budget shared round-robin between users (tests read who is waiting). */
  fairShare: FairShareGate;
  /** The host's Prometheus series (ADDIN_METRICS_PORT serves them). */
  metrics: HostMetrics;
  readiness: Readiness;
  /**
   * Graceful stop (SIGTERM): accepts nothing new, lets the requests in flight finish within
   * `boundMs` (default 10 s), answers 503 to what is left, then closes.
   */
  stop(boundMs?: number): Promise<DrainOutcome>;
}

/**
 * The add-in host: serves the built add-in and office.js, and proxies the valuation API so
 * the browser never holds a credential. One ServiceClient (one token, one rate limiter) and
 * one cache serve every user of the host.
 */
export async function startAddinHost(options: AddinHostOptions): Promise<RunningAddinHost> {
  const host = options.host ?? '127.0.0.1';
  if (!options.tls && !(options.insecureHttp && host === '127.0.0.1')) {
    throw new Error('The add-in host needs a TLS certificate and key (Office loads add-ins only over HTTPS); plain HTTP is allowed only on 127.0.0.1 for tests.');
  }
  if (options.deploymentKey !== undefined && !isValidDeploymentKey(options.deploymentKey)) throw new Error(DEPLOYMENT_KEY_RULE);
  const auth: AuthSettings = options.auth ?? (options.deploymentKey !== undefined ? { mode: 'key', key: options.deploymentKey } : { mode: 'none' });
  checkAuthForAddress(auth, host);
  const authorizer = new Authorizer(auth);
  checkServiceUrl(options.service.baseUrl, 'The service address');
  const distDir = options.distDir ?? path.join(ADDIN_DIR, 'dist');
  const s = options.service;
  // Users share the account's budget round-robin (fair-share.ts) in front of the account's one gate.
  const dayMs = s.limits?.dayMs ?? 86_400_000;
  const log = options.log;
  const publicFiles = new PublicFiles(distDir, {
    deploymentKey: auth.mode === 'key' ? auth.key : options.deploymentKey,
    onWithheld: (name) => log?.warn(`${path.join(distDir, name)} is not served: it holds a deployment key. Remove it from the build folder.`),
  });
  log?.addSecret(s.clientSecret);
  log?.addSecret(options.deploymentKey);
  const metrics: HostMetrics = new HostMetrics(() => fairShare.usersWaiting);
  const recorded = options.metrics === false ? undefined : metrics;
  const fairShare = new FairShareGate(options.shared?.gate ?? sharedGate(accountKey(s.baseUrl.replace(/\/+$/, ''), s.clientId), { minuteMs: s.limits?.minuteMs ?? 60_000, dayMs }), {
    // Read at each call: the share follows the day's budget once the service states it.
    perUserDailyCap: () => userCap(),
    counts: options.shared?.userCounts,
    dayMs,
    onWait: recorded && ((ms) => recorded.fairShareWait.observe(ms / 1000)),
  });
  const client = new ServiceClient({
    baseUrl: s.baseUrl,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    tier: s.tier,
    limits: s.limits,
    rateGate: fairShare,
    logger: log,
    onCall: recorded ? recorded.observer(log, (e) => noteRequestId(e.requestId)) : log && ((e) => noteRequestId(e.requestId)),
  });
  const userCap = userDailyCap({ cap: options.perUserDailyCap, sharePercent: options.userDailySharePercent }, auth.mode, client, s);
  metrics.watchBudget({ status: () => client.rateLimitStatus(), callsPerMs: () => client.pacing().callsPerMs });
  const cache = new HostApiCache(Date.now, options.shared?.answers, recorded);
  const redis = options.shared?.redis;
  const readiness = new Readiness([serviceCheck(client, options.readinessCheckMs), ...(redis ? [redisCheck(redis, redis.label)] : []), ...(options.readinessChecks ?? [])], { scrub: log?.scrub });
  readiness.register(metrics.registry);
  const drain = new Drain();
  const access = portfolioAccess(auth.mode, options.portfolioAccess);

  const officeJs = options.officeJs ?? 'cdn';
  const security = securityHeaders({ officeJs, tls: options.tls !== undefined });
  const workerCsp = serviceWorkerCsp({ officeJs });
  const refreshLimit = new IntervalLimit(options.refreshIntervalMs ?? REFRESH_INTERVAL_MS);
  const userLimits = new UserLimits(options.refreshIntervalMs ?? REFRESH_INTERVAL_MS, STATUS_PER_MINUTE, 60_000);
  const audit = options.auditLog !== undefined ? new AuditLog(options.auditLog, options.auditMaxBytes, log && ((m) => log.error(m))) : undefined;
  /** Set once the server listens (the port is known then). */
  let origins = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse, ctx: RequestContext): Promise<void> => {
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    const url = requestUrl(req.url);
    let p: string;
    try {
      p = decodeRequestPath(url.pathname);
    } catch (err) {
      if (err instanceof BadPathError) return sendError(res, 404, 'not_found', NOT_SERVED);
      throw err;
    }
    ctx.route = routeOf(p);
    // Load balancers and service managers ask these without any header or sign-in; they spend no call.
    // /readyz names the dependencies and their addresses only to a caller the gated routes would accept.
    if (await handleOpsRoute(req, res, p, { readiness, readinessDetail: (r) => mayUseHost(r, url.searchParams) })) return;
    const isApi = ctx.route === 'api';
    if (isApi || p.startsWith('/addin/')) {
      // Audited from here on, refusals included (request-record.ts).
      ctx.operation = isApi ? 'api' : p.slice('/addin/'.length);
      // Every one of these routes spends a call or changes state: only the add-in's own pages may ask.
      const refusal = crossSiteRefusal(req, origins);
      if (refusal) {
        // Without sign-in the caller's address is who the host knows; with sign-in nobody is known before a token verifies.
        if (auth.mode !== 'entra') ctx.user = anonymousUser(req.socket.remoteAddress);
        return sendError(res, refusal.status, 'cross_site_refused', refusal.message);
      }
      try {
        ctx.user = await authorizer.authorize(req, url.searchParams);
        recorded?.signIn('accepted', auth.mode);
      } catch (err) {
        if (!(err instanceof AuthRefusal)) throw err;
        recorded?.signIn('refused', err.type);
        ctx.user = err.details.user ?? (auth.mode !== 'entra' ? anonymousUser(req.socket.remoteAddress) : undefined);
        const headers: Record<string, string> = err.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
        if (err.details.retryAfterMs !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(err.details.retryAfterMs / 1000)));
        return sendError(res, err.status, err.type, err.text, { action: err.status === 503 ? 'retry_later' : 'sign_in' }, headers);
      }
    }
    // Before any route reads a parameter: a NUL or other control character is a 400 naming the parameter.
    if (ctx.operation !== undefined) {
      const bad = controlCharacterRefusal(url.searchParams);
      if (bad) return sendError(res, 400, 'validation_error', bad.message, { field: bad.field });
    }
    if (isApi) return handleApi(req, res, p.slice(API_PREFIX.length), url.searchParams, { client, cache });
    if (p === '/addin/status' && req.method === 'GET') {
      const wait = userLimits.takeStatus(ctx.user!.id);
      if (wait > 0) return sendError(res, 429, 'rate_limited', hostText('addin.host_status_too_often', { seconds: String(Math.ceil(wait / 1000)) }), { action: 'retry_later' }, { 'retry-after': String(Math.ceil(wait / 1000)) });
      return sendJson(res, 200, { ...(await connectionStatus(client, cache, s, requestTranslator(req))), ...(await userStatus(ctx.user!)) });
    }
    if (p === '/addin/budget' && req.method === 'GET') {
      // Counted with the status requests: the pane asks both, and neither spends a call.
      const wait = userLimits.takeStatus(ctx.user!.id);
      if (wait > 0) return sendError(res, 429, 'rate_limited', hostText('addin.host_budget_too_often', { seconds: String(Math.ceil(wait / 1000)) }), { action: 'retry_later' }, { 'retry-after': String(Math.ceil(wait / 1000)) });
      return sendJson(res, 200, accountBudget(client, s, { usedToday: await fairShare.countToday(ctx.user!.id), dailyCap: userCap() }));
    }
    if (p === '/addin/refresh' && req.method === 'POST') {
      const own = userLimits.takeRefresh(ctx.user!.id);
      if (own > 0) {
        return sendError(res, 429, 'rate_limited', hostText('addin.host_refresh_own', { seconds: String(Math.ceil(own / 1000)) }), { action: 'retry_later' }, { 'retry-after': String(Math.ceil(own / 1000)) });
      }
      const wait = refreshLimit.take();
      if (wait > 0) {
        return sendError(res, 429, 'rate_limited', hostText('addin.host_refresh_recent', { seconds: String(Math.ceil(wait / 1000)) }), { action: 'retry_later' }, { 'retry-after': String(Math.ceil(wait / 1000)) });
      }
      cache.clear();
      return sendJson(res, 200, { cleared: true });
    }
    if (p === '/addin/report' && req.method === 'POST') return handleReportExport(req, res, { client, service: s, brand: options.brand, history: { source: options.history, access } }, ctx);
    if (p === HISTORY_PATH && req.method === 'GET') return handleHistory(res, url.searchParams, { source: options.history, access }, ctx);
    if (p === PERFORMANCE_PATH && req.method === 'GET') return handlePerformance(res, url.searchParams, { source: options.history, access }, ctx);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'method_not_allowed', `${req.method ?? ''} is not allowed here.`);
    if (p.startsWith(OFFICE_JS_LOCAL_PREFIX)) {
      if (officeJs === 'local' && (await serveFile(res, OFFICE_JS_DIR, p.slice(OFFICE_JS_LOCAL_PREFIX.length - 1), { cacheControl: 'public, max-age=86400' }))) return;
      return sendError(res, 404, 'not_found', NOT_SERVED);
    }
    // Only the build's public files, by their exact names (public-files.ts): never the manifest holding a key, nor the build record.
    const name = p === '/' ? '/taskpane.html' : p;
    const file = p.startsWith('/addin/') ? undefined : await publicFiles.lookup(name);
    // The worker's own context fetches only what it keeps (office.js from the CDN among it).
    if (file && name === SERVICE_WORKER_PATH) res.setHeader('content-security-policy', workerCsp);
    if (file && (await sendFile(res, file, { cacheControl: staticCacheControl(name), html: (page) => pageForOfficeJs(page, officeJs) }))) return;
    sendError(res, 404, 'not_found', NOT_SERVED);
  };

  /** Whether a request passes the gated routes' checks (cross-site, sign-in), without auditing or refusing it. */
  const mayUseHost = async (req: IncomingMessage, query: URLSearchParams): Promise<boolean> => {
    if (crossSiteRefusal(req, origins)) return false;
    return authorizer.authorize(req, query).then(
      () => true,
      () => false,
    );
  };

  /** What the pane shows about its user: who is signed in, and calls of theirs waiting for their turn (fair share). */
  const userStatus = async (user: NonNullable<RequestContext['user']>) => ({
    user: user.signedIn ? { name: user.name, waiting: fairShare.waiting(user.id), calls_today: await fairShare.countToday(user.id), daily_cap: userCap() ?? null } : null,
  });

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (!drain.admit(req, res)) return;
    const ctx: RequestContext = { user: undefined, operation: undefined, assets: undefined, upstreamCalls: 0, log };
    recordRequest(req, res, ctx, { audit, metrics: recorded, log });
    runInRequestContext(ctx, () => handle(req, res, ctx)).catch((err: unknown) => {
      if (!res.headersSent) sendServiceError(res, err);
      else res.destroy();
    });
  };
  const server = options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, listener) : http.createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const listenUrl = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  origins = ownOrigins(listenUrl, options.publicOrigin);
  const stale = await staleManifestWarning(distDir, options.publicOrigin ?? listenUrl);
  if (stale) log?.warn(stale);
  return {
    url: listenUrl,
    cache,
    client,
    fairShare,
    metrics,
    readiness,
    stop: async (boundMs) => {
      readiness.shuttingDown();
      const outcome = await drain.stop(server, boundMs);
      await audit?.flush();
      return outcome;
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await audit?.flush();
    },
  };
}

/**
 * The request target as a URL. An origin-form target (`/…`) is appended to a fixed origin rather
 * than resolved against it: resolved, `//manifest.xml` would be read as a host name and its path
 * as `/`. Anything else (absolute-form, `*`) is resolved as usual.
 */
function requestUrl(target = '/'): URL {
  const base = 'http://host.invalid';
  return target.startsWith('/') ? new URL(`${base}${target}`) : new URL(target, base);
}

/** The metrics' label for a decoded path. */
function routeOf(p: string): HostRoute {
  if (p === API_PREFIX || p.startsWith(`${API_PREFIX}/`)) return 'api';
  if (p === '/healthz' || p === '/readyz') return 'health';
  const addin = /^\/addin\/(status|budget|refresh|report|history|performance)$/.exec(p);
  if (addin) return addin[1] as HostRoute;
  return p.startsWith('/addin/') ? 'other' : 'static';
}
