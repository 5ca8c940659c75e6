import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { ADDIN_DIR } from '../paths';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceClient, type AccountGate } from '../../src/client';
import { API_PREFIX, DEPLOYMENT_KEY_HEADER } from '../src/shared/host-connection';
import { HostApiCache } from './api-cache';
import type { SharedAnswers } from './redis-cache';
import type { ServiceTarget } from './service-target';
export type { ServiceTarget };
import { sendError, sendJson } from './http-util';
import { handleApi, sendServiceError } from './proxy';
import { serveFile } from './static-files';
import { BadPathError, decodeRequestPath, isPrivateFile } from './request-path';
import { crossSiteRefusal, ownOrigins } from './cross-site';
import { OFFICE_JS_DIR, OFFICE_JS_LOCAL_PREFIX, pageForOfficeJs, securityHeaders, type OfficeJsSource } from './office-js';
import { IntervalLimit } from './interval-limit';
import { checkServiceUrl } from './config';
import { DEPLOYMENT_KEY_RULE, isValidDeploymentKey } from '../contract/deployment-key';
import { connectionStatus } from './status';
import { handleReportExport } from './report-export';

export { OFFICE_JS_DIR };

/** Clearing the shared cache makes every user's next cells go upstream: at most this often. */
const REFRESH_INTERVAL_MS = 30_000;

export interface AddinHostOptions {
  service: ServiceTarget;
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** HTTPS certificate and key (PEM). Required unless insecureHttp is set. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Plain HTTP, for tests only: allowed on 127.0.0.1 alone. */
  insecureHttp?: boolean;
  /** When set, every API and report request must carry it in the x-addin-deployment-key header. */
  deploymentKey?: string;
  /** The built add-in (default addin/dist). */
  distDir?: string;
  /** Where the pages load office.js from (default Microsoft's CDN; `local` serves the npm copy). */
  officeJs?: OfficeJsSource;
  /** The origin users reach the host at (ADDIN_ORIGIN), when it is not the address it listens on (a reverse proxy). */
  publicOrigin?: string;
  /** Least time between two clears of the shared cache (default 30 s). */
  refreshIntervalMs?: number;
  /** Replicas of the host on one account (SVC_REDIS_URL, docs/scale-out.md): the account's shared rate gate and answers. */
  shared?: { gate: AccountGate; answers: SharedAnswers };
}

export interface RunningAddinHost {
  /** https://HOST:PORT (or http:// in tests). */
  url: string;
  close(): Promise<void>;
  /** The host's shared API cache (its upstreamCalls count is read by tests and the benchmark). */
  cache: HostApiCache;
  client: ServiceClient;
}

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
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
  checkServiceUrl(options.service.baseUrl, 'The service address');
  const distDir = options.distDir ?? path.join(ADDIN_DIR, 'dist');
  const s = options.service;
  const client = new ServiceClient({
    baseUrl: s.baseUrl,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    tier: s.tier,
    limits: s.limits,
    rateGate: options.shared?.gate,
  });
  const cache = new HostApiCache(Date.now, options.shared?.answers);

  const officeJs = options.officeJs ?? 'cdn';
  const security = securityHeaders({ officeJs, tls: options.tls !== undefined });
  const refreshLimit = new IntervalLimit(options.refreshIntervalMs ?? REFRESH_INTERVAL_MS);
  /** Set once the server listens (the port is known then). */
  let origins = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    let p: string;
    try {
      p = decodeRequestPath(url.pathname);
    } catch (err) {
      if (err instanceof BadPathError) return sendError(res, 400, 'invalid_path', err.message);
      throw err;
    }
    const isApi = p === API_PREFIX || p.startsWith(`${API_PREFIX}/`);
    if (isApi || p.startsWith('/addin/')) {
      // Every one of these routes spends a call or changes state: only the add-in's own pages may ask.
      const refusal = crossSiteRefusal(req, origins);
      if (refusal) return sendError(res, refusal.status, 'cross_site_refused', refusal.message);
      if (options.deploymentKey && !keyMatches(req.headers[DEPLOYMENT_KEY_HEADER], options.deploymentKey)) {
        return sendError(res, 403, 'deployment_key_required', 'This add-in host requires its deployment key: install the add-in from the manifest your administrator deployed.');
      }
    }
    if (isApi) return handleApi(req, res, p.slice(API_PREFIX.length), url.searchParams, { client, cache });
    if (p === '/addin/status' && req.method === 'GET') return sendJson(res, 200, await connectionStatus(client, cache, s));
    if (p === '/addin/refresh' && req.method === 'POST') {
      const wait = refreshLimit.take();
      if (wait > 0) {
        return sendError(res, 429, 'rate_limited', `The host's cache was cleared moments ago; try again in ${Math.ceil(wait / 1000)} s.`, { action: 'retry_later' }, { 'retry-after': String(Math.ceil(wait / 1000)) });
      }
      cache.clear();
      return sendJson(res, 200, { cleared: true });
    }
    if (p === '/addin/report' && req.method === 'POST') return handleReportExport(req, res, { client, service: s });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'method_not_allowed', `${req.method ?? ''} is not allowed here.`);
    if (p.startsWith(OFFICE_JS_LOCAL_PREFIX)) {
      if (officeJs === 'local' && (await serveFile(res, OFFICE_JS_DIR, p.slice(OFFICE_JS_LOCAL_PREFIX.length - 1), { cacheControl: 'public, max-age=86400' }))) return;
      return sendError(res, 404, 'not_found', 'Nothing is served at this path.');
    }
    // A deployment's manifest carries its key: it reaches users through the admin centre, not from here.
    if (options.deploymentKey !== undefined && isPrivateFile(p)) return sendError(res, 404, 'not_found', 'Nothing is served at this path.');
    if (!p.startsWith('/addin/') && (await serveFile(res, distDir, p === '/' ? '/taskpane.html' : p, { html: (page) => pageForOfficeJs(page, officeJs) }))) return;
    sendError(res, 404, 'not_found', 'Nothing is served at this path.');
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
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
  return {
    url: listenUrl,
    cache,
    client,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
