import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readiness } from './readiness';
import type { ServiceMetrics } from './service-metrics';

/** What an operations listener answers: any of health, readiness and metrics. */
export interface OpsRoutes {
  /** /healthz and /readyz (without it, neither). */
  readiness?: Readiness;
  /** /metrics (without it, none). */
  metrics?: ServiceMetrics;
  /** Whether `/readyz` may name each dependency and its problem to this caller; absent: always (a metrics listener). */
  readinessDetail?: (req: IncomingMessage) => Promise<boolean>;
}

const NO_STORE = { 'cache-control': 'no-store' };

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...NO_STORE });
  res.end(text);
}

/**
 * Answers /healthz (the process is alive: 200 as long as it can answer at all), /readyz (200
 * when every dependency answers, else 503, with a JSON body naming what is not ready) and
 * /metrics (Prometheus's text format). Returns false for any other path. Needs no sign-in and
 * spends no call of the account's budget. GET and HEAD only.
 */
export async function handleOpsRoute(req: IncomingMessage, res: ServerResponse, path: string, routes: OpsRoutes): Promise<boolean> {
  const wanted = (path === '/healthz' || path === '/readyz') && routes.readiness ? path : path === '/metrics' && routes.metrics ? path : undefined;
  if (!wanted) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', ...NO_STORE });
    res.end();
    return true;
  }
  if (wanted === '/healthz') {
    sendJson(res, 200, { status: 'ok' });
  } else if (wanted === '/readyz') {
    const { status, body } = await routes.readiness!.answer(routes.readinessDetail ? await routes.readinessDetail(req) : true);
    sendJson(res, status, body);
  } else {
    const { contentType, body } = await routes.metrics!.exposition();
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...NO_STORE });
    res.end(body);
  }
  return true;
}

export interface OpsServer {
  /** http://HOST:PORT */
  url: string;
  port: number;
  /** When /metrics was last answered (epoch ms), and the time between the last two scrapes. */
  lastScrape(): { at: number | undefined; intervalMs: number | undefined };
  /** Resolves at the next answer to /metrics, or after `maxMs` (false then). */
  nextScrape(maxMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A small plain-HTTP listener for the operations routes, apart from the product's own port
 * (`svc-report worker --health-port`, `run --metrics-port`, the host's ADDIN_METRICS_PORT).
 * Bound to 127.0.0.1 unless told otherwise: metrics are for the firm's monitoring, not its users.
 */
export async function startOpsServer(routes: OpsRoutes, o: { port: number; host?: string }): Promise<OpsServer> {
  const scrapes: number[] = [];
  const waiters = new Set<(scraped: boolean) => void>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://ops.invalid').pathname;
    handleOpsRoute(req, res, path, routes)
      .then((handled) => {
        if (path === '/metrics' && handled) {
          scrapes.push(Date.now());
          if (scrapes.length > 2) scrapes.shift();
          for (const w of [...waiters]) w(true);
        }
        if (!handled) {
          res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...NO_STORE });
          res.end('Not found: this listener answers /healthz, /readyz and /metrics only.\n');
        }
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, NO_STORE);
        res.end();
      });
  });
  // Scrapers keep their connection open; a stopping process must not wait for them.
  server.keepAliveTimeout = 5_000;
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    lastScrape: () => ({ at: scrapes.at(-1), intervalMs: scrapes.length === 2 ? scrapes[1]! - scrapes[0]! : undefined }),
    nextScrape: (maxMs) =>
      new Promise<boolean>((resolve) => {
        const done = (scraped: boolean) => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve(scraped);
        };
        const timer = setTimeout(() => done(false), maxMs);
        waiters.add(done);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of [...waiters]) w(false);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
