import { drainRequest } from '../../drain-request';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { OPERATIONS, REQUEST_ID_HEADER, matchOperation, type OperationDef, type OperationName } from '../../wire';
import { OPENAPI_PATH, buildOpenApi } from '../../wire/openapi';
import type { Account } from '../accounts';
import type { Market } from '../market/market';
import { ClientClosedRequest, readJsonBody } from './body';
import { AS_OF_HEADER, marketDay } from './context';
import { corsHeaders, preflightHeaders } from './cors';
import { FaultInjector, type FaultConfig } from './faults';
import { createHandlers, type HandlerInput } from './handlers';
import { HttpError, fromZodError, rateLimitedError as rateLimited } from './http-error';
import { RateLimiter } from './rate-limiter';
import { countItems, type LogLine, type RequestLog } from './request-log';
import { SignInThrottle } from './sign-in-throttle';
import { TokenService, type Caller } from './tokens';

export const BASE_PATH = '/v1';

export interface ServerOptions {
  accounts: readonly Account[];
  market: Market;
  tokenTtlSeconds: number;
  minuteMs: number;
  dayMs: number;
  faults: FaultConfig;
  seed: number;
  storeLimit: number;
  now: () => Date;
  /** Epoch ms for the rate windows and the failed-secret slow-down. */
  clockMs: () => number;
  log?: RequestLog;
  /** Where unexpected server errors go (their stacks never reach a client). */
  onInternalError?: (e: unknown) => void;
}

/** The sandbox's HTTP server: routing by the wire's OPERATIONS table, auth, limits, faults, errors. */
export function createSandboxServer(o: ServerOptions): Server {
  const accounts = new Map(o.accounts.map((a) => [a.clientId, a]));
  const tokens = new TokenService(accounts, o.tokenTtlSeconds, new SignInThrottle(o.clockMs));
  const limiter = new RateLimiter(o.minuteMs, o.dayMs);
  const faults = new FaultInjector(o.faults, o.seed);
  const handlers = createHandlers({ market: o.market, tokens, storeLimit: o.storeLimit });

  const server = createServer({ keepAlive: true }, (req, res) => {
    // Errors are answered inside handle(); this only catches a failure while answering (e.g. the log's disk).
    handle(req, res).catch((e: unknown) => {
      o.onInternalError?.(e);
      res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    if (method === 'OPTIONS') {
      res.writeHead(204, preflightHeaders(req.headers));
      res.end();
      return;
    }
    // Every answer names its request, as a production API does; the log line carries the same id,
    // so an error a user quotes can be found in the log.
    const requestId = newRequestId();
    const headers: Record<string, string> = { ...corsHeaders(req.headers), [REQUEST_ID_HEADER]: requestId };
    const log = (account: Account | undefined, status: number, items: number) => o.log?.write(logLine(account, method, pathname, status, items, requestId));
    let account: Account | undefined;
    let items = 0;
    let status: number;
    let payload: unknown;
    try {
      if (pathname === BASE_PATH + OPENAPI_PATH) {
        // The contract itself: public, like any published API document; spends nothing.
        if (method !== 'GET') throw new HttpError('method_not_allowed', `${method} is not allowed on ${pathname}; use GET`, { headers: { allow: 'GET' } });
        log(undefined, 200, 0);
        send(res, 200, headers, openApiDocument());
        return;
      }
      const route = routeOf(method, pathname);
      if ('error' in route) {
        await addRateHeadersIfAuthenticated(req, headers);
        throw route.error;
      }
      const op: OperationDef = OPERATIONS[route.name];
      let caller: Caller | undefined;
      if (op.auth) {
        caller = await tokens.authenticate(req.headers.authorization);
        account = caller.account;
        const fault = faults.next();
        const rate = limiter.check(account, fault.kind !== 'r429', o.clockMs());
        Object.assign(headers, rate.headers);
        if (fault.latencyMs > 0) await sleep(fault.latencyMs);
        if (!rate.allowed) throw rateLimited(rate.retryAfterSeconds, rate.exhausted === 'day' ? `the daily limit of ${account.perDay} requests is used up` : `the limit of ${account.perMinute} requests per minute is reached`);
        if (fault.kind === 'r429') throw rateLimited(1, 'too many requests right now');
        if (fault.kind === 'drop') {
          log(account, 0, 0);
          req.socket.destroy();
          return;
        }
        if (fault.kind === 'error') throw new HttpError('internal_error', 'the service failed to process the request (simulated fault); retry with backoff');
        if (op.scope && !caller.scopes.includes(op.scope)) {
          throw new HttpError('forbidden', `this token's scope does not include '${op.scope}' (tier ${account.tier}); it covers: ${caller.scopes.join(', ') || 'nothing'}`);
        }
      }
      const day = op.auth ? marketDay(req.headers[AS_OF_HEADER], o.now()) : '';
      let body: unknown;
      if (op.request) {
        const raw = await readJsonBody(req);
        items = countItems(raw);
        const parsed = op.request.safeParse(raw);
        if (!parsed.success) throw fromZodError(parsed.error, raw, op.request);
        body = parsed.data;
      }
      const input: HandlerInput<OperationName> = {
        body: body as never,
        params: route.params,
        query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
        caller,
        day,
        now: o.now(),
      };
      const result = await (handlers[route.name] as (i: HandlerInput<OperationName>) => unknown)(input);
      status = op.status;
      payload = result;
    } catch (e) {
      if (e instanceof ClientClosedRequest) {
        // Nobody to answer; 499 as nginx logs it, so tests counting calls see the attempt.
        log(account, 499, items);
        return;
      }
      const err = e instanceof HttpError ? e : internalError(e);
      status = err.status;
      payload = err.body();
      Object.assign(headers, err.extra.headers);
      // An oversize upload: the connection is closed after the answer (a client cannot be trusted with another).
      if (err.type === 'payload_too_large') headers.connection = 'close';
    }
    log(account, status, items);
    // A body nobody read (refused before or while reading it): read the rest first, so the client,
    // still sending, gets the answer rather than a broken pipe; beyond the bound, close after it.
    if (!req.complete && !(await drainRequest(req))) headers.connection = 'close';
    send(res, status, headers, payload);
  }

  function routeOf(method: string, pathname: string): { name: OperationName; params: Record<string, string> } | { error: HttpError } {
    if (pathname !== BASE_PATH && !pathname.startsWith(BASE_PATH + '/')) {
      return { error: new HttpError('not_found', `no such path: the API lives under ${BASE_PATH}`) };
    }
    const rel = pathname.slice(BASE_PATH.length);
    const m = matchOperation(method, rel);
    if ('name' in m) return m;
    if (!m.pathKnown) return { error: new HttpError('not_found', `no operation at ${pathname.slice(0, 200)}`) };
    const allow = (['GET', 'POST', 'PUT'] as const).filter((verb) => 'name' in matchOperation(verb, rel));
    return {
      error: new HttpError('method_not_allowed', `${method} is not allowed on ${pathname.slice(0, 200)}; use ${allow.join(' or ')}`, {
        headers: { allow: allow.join(', ') },
      }),
    };
  }

  /** Unknown paths still carry the caller's rate headers when a valid token came along (nothing is spent). */
  async function addRateHeadersIfAuthenticated(req: IncomingMessage, headers: Record<string, string>): Promise<void> {
    if (!req.headers.authorization) return;
    try {
      const caller = await tokens.authenticate(req.headers.authorization);
      Object.assign(headers, limiter.check(caller.account, false, o.clockMs()).headers);
    } catch {
      // Without a valid token there is no account to describe.
    }
  }

  function internalError(e: unknown): HttpError {
    o.onInternalError?.(e);
    return new HttpError('internal_error', 'the sandbox failed to process the request; retry with backoff');
  }

  return server;
}

let openApi: Record<string, unknown> | undefined;
/** Built on first request (it costs a few milliseconds), then kept. */
function openApiDocument(): Record<string, unknown> {
  return (openApi ??= buildOpenApi());
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const json = JSON.stringify(body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(json));
  res.writeHead(status, headers);
  res.end(json);
}

/** `req_` and 24 hex digits: unique per answer, nothing derived from the caller. */
function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

function logLine(account: Account | undefined, method: string, path: string, status: number, items: number, requestId: string): LogLine {
  return { t: new Date().toISOString(), client_id: account?.clientId ?? null, method, path, status, items, request_id: requestId };
}
