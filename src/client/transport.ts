import { ErrorResponse, OPERATIONS, SANDBOX_HEADER, buildPath, type ApiErrorBody, type OperationDef, type OperationName, type ResponseOf } from '../wire';
import { MAX_RETRY_AFTER_MS, retryDelay, type BackoffOptions } from './backoff';
import {
  ConnectionError,
  InvalidResponseError,
  ServerError,
  ServiceError,
  TimeoutError,
  AbortedError,
  errorFromResponse,
  requestIdOf,
} from './errors';
import { log, redactBody, redactHeaders, type ClientLogger } from './logger';
import { parseOptions } from './jitless';
import { connectionError } from './network-errors';
import { notify, type CallObserver } from './observer';
import { readRateHeaders } from './rate-headers';
import { RoundTripMeter } from './round-trip';
import type { AccountGate, Permit } from './rate-gate';
import { abortedError, sleep } from './sleep';
import type { TokenSource } from './tokens';
import { checkRequest, checkResponse } from './validate';

/** The fetch signature the client needs; the global fetch of Node 20 and of browsers fits. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  /** Ends in /v1; no trailing slash. */
  baseUrl: string;
  fetch: FetchLike;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Retries after 5xx, network errors and timeouts. */
  maxRetries: number;
  /** Retries after a 429 (each waits for the reset, so they do not hammer). */
  maxRateLimitRetries: number;
  backoff: BackoffOptions;
  logger: ClientLogger | undefined;
  gate: AccountGate;
  /** Told of every exchange (metrics, logs); off when undefined. */
  onCall?: CallObserver;
}

/** Per-call options every method accepts (each over the client's own setting). */
export interface RequestOptions {
  /** Cancels the call: waiting in the gate, in flight, or between retries (AbortedError). */
  signal?: AbortSignal;
  /** Extra headers for this call only (e.g. x-sandbox-as-of). */
  headers?: Record<string, string>;
  /** Per attempt, body included. */
  timeoutMs?: number;
  /** Retries after 5xx, network errors and timeouts for this call (0: sent once). */
  maxRetries?: number;
}

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** The body was already checked item by item (valueAll): skip the second parse. */
  checked?: boolean;
}

const TOKEN_OPERATIONS: ReadonlySet<OperationName> = new Set(['createToken', 'refreshToken']);

/**
 * The small core every method goes through (after openai-node): check the input, take a
 * token, pass the account's rate gate, send with a timeout, classify the answer, retry what
 * is safe to retry, validate the body against the wire contract.
 */
export class Transport {
  private tokens: TokenSource | undefined;
  /** Round trips of answered calls (gate wait excluded). */
  readonly roundTrip = new RoundTripMeter();
  /** Set for good once any answer carried `x-sandbox: true`. */
  servedBySandbox = false;

  constructor(private readonly cfg: TransportConfig) {}

  /** Set once by the client: the token source itself calls the transport for token operations. */
  useTokens(tokens: TokenSource): void {
    this.tokens = tokens;
  }

  async call<N extends OperationName>(name: N, input: CallInput = {}, opts: RequestOptions = {}): Promise<ResponseOf<N>> {
    const op: OperationDef = OPERATIONS[name];
    const label = `${name} (${op.method} ${op.path})`;
    const body = op.request && !input.checked ? checkRequest(op.request, input.body, name) : input.body;
    const url = this.cfg.baseUrl + buildPath(op.path, input.params) + queryString(input.query);
    const signal = opts.signal;
    const logged = TOKEN_OPERATIONS.has(name) ? { body: redactBody(body) } : summarise(body);

    const maxRetries = opts.maxRetries ?? this.cfg.maxRetries;
    let failures = 0;
    let refusals = 0;
    let reauthenticated = false;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw abortedError(name, signal.reason);
      // A token before queueing (a round trip, if one is needed, happens before the slot, not
      // after it), and again once the slot is granted: the wait in the gate may have outlived it.
      if (op.auth) await this.tokens?.warm(signal);
      const permit: Permit | undefined = op.auth ? await this.cfg.gate.acquire(signal) : undefined;
      let token: string | undefined;
      try {
        token = op.auth ? await this.tokens?.token(signal) : undefined;
      } catch (e) {
        if (permit) this.cfg.gate.unused(permit);
        throw e;
      }
      const headers: Record<string, string> = { accept: 'application/json', ...this.cfg.headers, ...opts.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      log(this.cfg.logger, 'debug', `${op.method} ${url}`, { attempt, headers: redactHeaders(headers), ...logged });

      const started = Date.now();
      let outcome: { status: number; headers: Headers; text: string };
      try {
        outcome = await this.send(url, { method: op.method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, opts.timeoutMs ?? this.cfg.timeoutMs, signal, name, label);
      } catch (e) {
        const err = e as ServiceError;
        notify(this.cfg.onCall, { operation: name, status: 0, failure: err instanceof TimeoutError ? 'timeout' : err instanceof AbortedError ? 'aborted' : 'network', durationMs: Date.now() - started, requestId: undefined, attempt });
        if (permit) this.cfg.gate.observe(permit, {}, false);
        if (failures < maxRetries && isRetryableFailure(err, op.idempotent)) {
          failures++;
          await this.pause(failures, maxRetries, undefined, `${err.message}`, label, signal);
          continue;
        }
        throw err;
      }
      const now = Date.now();
      this.roundTrip.record(now - started);
      if (isSandboxAnswer(outcome.headers)) this.servedBySandbox = true;
      const rate = readRateHeaders(outcome.headers, now);
      const requestId = requestIdOf(outcome.headers);
      notify(this.cfg.onCall, { operation: name, status: outcome.status, durationMs: now - started, requestId, attempt });
      log(this.cfg.logger, 'debug', `${outcome.status} ${op.method} ${url} in ${now - started} ms`, { request_id: requestId });

      if (outcome.status >= 200 && outcome.status < 300) {
        if (op.auth) this.cfg.gate.observe(permit, rate);
        return checkResponse(op.response, parseJson(outcome.text, label, name, outcome.headers), label, outcome.headers) as ResponseOf<N>;
      }

      const errBody = parseErrorBody(outcome.text);
      // A 401 spends nothing at the service.
      if (outcome.status === 401 && op.auth) this.cfg.gate.refund(permit);
      if (outcome.status === 401 && op.auth && !reauthenticated && this.tokens?.canRenew) {
        // An expired or revoked token: renew and repeat once, outside the retry budget.
        reauthenticated = true;
        this.cfg.gate.observe(permit, rate);
        this.tokens.invalidate(token);
        log(this.cfg.logger, 'info', `token refused on ${label}; renewing and repeating once`);
        continue;
      }
      if (outcome.status === 429) {
        // Authenticated calls: the gate either holds the whole account until the reset, or
        // names a wait for this request alone. Token calls are not gated: honour Retry-After.
        let waitMs = Math.min(MAX_RETRY_AFTER_MS, Math.max(0, (rate.retryAt ?? now + 1000) - now));
        if (op.auth) {
          const verdict = this.cfg.gate.rateLimited(permit, rate);
          if ('daily' in verdict) throw verdict.daily;
          waitMs = verdict.waitMs;
        }
        if (refusals < this.cfg.maxRateLimitRetries) {
          refusals++;
          log(this.cfg.logger, 'warn', `rate limited on ${label}; waiting ${Math.round(waitMs)} ms`, { refusals, request_id: requestId });
          if (waitMs > 0) await sleep(waitMs, signal);
          continue;
        }
        throw errorFromResponse(429, errBody, name, { headers: outcome.headers, resetAt: rate.minuteResetAt !== undefined ? new Date(rate.minuteResetAt) : undefined });
      }
      if (op.auth) this.cfg.gate.observe(permit, rate);
      const err = errorFromResponse(outcome.status, errBody, name, { headers: outcome.headers });
      if (failures < maxRetries && isRetryableFailure(err, op.idempotent)) {
        failures++;
        await this.pause(failures, maxRetries, rate.retryAt, `HTTP ${outcome.status}`, label, signal, requestId);
        continue;
      }
      throw err;
    }
  }

  private async pause(failures: number, of: number, retryAt: number | undefined, reason: string, label: string, signal: AbortSignal | undefined, requestId?: string): Promise<void> {
    const delay = retryDelay(failures, this.cfg.backoff, retryAt);
    log(this.cfg.logger, 'warn', `retrying ${label} in ${Math.round(delay)} ms after ${reason}`, { retry: failures, of, request_id: requestId });
    await sleep(delay, signal);
  }

  /** One HTTP exchange, body included, under the timeout and the caller's signal. */
  private async send(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined, name: string, label: string) {
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, timeoutMs);
    const onAbort = () => ctrl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.cfg.fetch(url, { ...init, signal: ctrl.signal });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (e) {
      if (signal?.aborted) throw abortedError(name, e);
      if (timedOut) {
        throw new TimeoutError({
          status: 0,
          type: 'timeout',
          action: 'retry_with_backoff',
          message: `The service did not answer ${label} within ${timeoutMs} ms.`,
          operation: name,
          cause: e,
        });
      }
      throw connectionError(e, name, this.cfg.baseUrl);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function isSandboxAnswer(headers: Headers): boolean {
  const v = headers.get(SANDBOX_HEADER);
  return v !== null && /^(true|1)$/i.test(v.trim());
}

/**
 * What may be repeated. A call that is not idempotent (POST /portfolio) is repeated only when
 * it surely never reached the service: not after a timeout, a reset connection or a 5xx.
 */
function isRetryableFailure(err: ServiceError, idempotent: boolean): boolean {
  if (err instanceof ConnectionError) return idempotent || err.notSent;
  if (err instanceof TimeoutError || err instanceof ServerError) return idempotent;
  return false;
}

function queryString(query: Record<string, string | undefined> | undefined): string {
  if (!query) return '';
  const entries = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined);
  return entries.length === 0 ? '' : '?' + new URLSearchParams(entries).toString();
}

function parseJson(text: string, label: string, name: string, headers: Headers): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InvalidResponseError({ status: 0, type: 'invalid_response', message: `The service's answer to ${label} is not JSON.`, operation: name, headers, cause: e });
  }
}

function parseErrorBody(text: string): ApiErrorBody | undefined {
  try {
    const parsed = ErrorResponse.safeParse(JSON.parse(text), parseOptions());
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
}

/** What a log line says about a body: sizes, never contents (they may be a client's holdings). */
function summarise(body: unknown): Record<string, unknown> {
  if (body && typeof body === 'object' && Array.isArray((body as { assets?: unknown }).assets)) {
    return { items: (body as { assets: unknown[] }).assets.length };
  }
  return {};
}
