import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceClient } from '../../src/client';
import { ADDIN_DIR } from '../paths';
import { API_PREFIX, DEPLOYMENT_KEY_HEADER } from '../src/shared/host-connection';
import { HostApiCache } from './api-cache';
import type { ServiceTarget } from './service-target';
export type { ServiceTarget };
import { sendError, sendJson } from './http-util';
import { handleApi, sendServiceError } from './proxy';
import { serveFile } from './static-files';
import { connectionStatus } from './status';
import { handleReportExport } from './report-export';

export const OFFICE_JS_DIR = path.resolve(ADDIN_DIR, '..', 'node_modules/@microsoft/office-js/dist');

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
  const distDir = options.distDir ?? path.join(ADDIN_DIR, 'dist');
  const s = options.service;
  const client = new ServiceClient({
    baseUrl: s.baseUrl,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    tier: s.tier,
    limits: s.limits,
  });
  const cache = new HostApiCache();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    const p = url.pathname;
    const guarded = p === API_PREFIX || p.startsWith(`${API_PREFIX}/`) || p.startsWith('/addin/');
    if (guarded && options.deploymentKey && !keyMatches(req.headers[DEPLOYMENT_KEY_HEADER], options.deploymentKey)) {
      sendError(res, 403, 'deployment_key_required', 'This add-in host requires its deployment key: install the add-in from the manifest your administrator deployed.');
      return;
    }
    if (p.startsWith(`${API_PREFIX}/`)) return handleApi(req, res, p.slice(API_PREFIX.length), url.searchParams, { client, cache });
    if (p === '/addin/status' && req.method === 'GET') return sendJson(res, 200, await connectionStatus(client, cache, s));
    if (p === '/addin/refresh' && req.method === 'POST') {
      cache.clear();
      return sendJson(res, 200, { cleared: true });
    }
    if (p === '/addin/report' && req.method === 'POST') return handleReportExport(req, res, { client, service: s });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'method_not_allowed', `${req.method ?? ''} is not allowed here.`);
    if (p.startsWith('/office-js/') && (await serveFile(res, OFFICE_JS_DIR, p.slice('/office-js'.length), 'public, max-age=86400'))) return;
    // A deployment's manifest carries its key: it reaches users through the admin centre, not from here.
    const privateFile = options.deploymentKey !== undefined && (p === '/manifest.xml' || p === '/build-info.json');
    if (!privateFile && !p.startsWith('/office-js/') && !p.startsWith('/addin/') && (await serveFile(res, distDir, p === '/' ? '/taskpane.html' : p))) return;
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
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    cache,
    client,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
