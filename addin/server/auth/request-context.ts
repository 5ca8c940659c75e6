import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestUser } from './user';
import type { HostRoute } from '../host-metrics';
import type { Log } from '../../../src/ops';

/**
 * What the host learns about one browser request while handling it: who it is for (fair share
 * reads it when the request reaches the account's rate gate), what it asked and whether it went
 * upstream (the audit log writes it when the answer is sent).
 */
export interface RequestContext {
  user: RequestUser | undefined;
  operation: string | undefined;
  assets: number | undefined;
  /** The portfolio (or asset id) a history read asked for, for its audit line. */
  historyKey?: { portfolio: string } | { asset_id: string };
  /** Calls this request made to the service (0: answered from the host's cache). */
  upstreamCalls: number;
  /** The service's x-request-id of each of those calls, for the host's log line. */
  requestIds?: string[];
  /** Which of the host's routes it is (metrics label). */
  route?: HostRoute;
  /** The host's log, for problems met while handling the request. */
  log?: Log;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequestContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** A problem for the operator (not the user): to the host's log when it has one, else stderr. */
export function reportProblem(message: string): void {
  const log = storage.getStore()?.log;
  if (log) log.error(message);
  else console.error(message);
}

/** The service's id for a call made on behalf of the current request (the log line names it). */
export function noteRequestId(id: string | undefined): void {
  const ctx = storage.getStore();
  if (ctx && id) (ctx.requestIds ??= []).push(id);
}

/** The operation and its number of assets (a batch's length, 1 for one asset), for the audit log; never the assets themselves. */
export function noteOperation(operation: string, body?: unknown): void {
  const ctx = storage.getStore();
  if (!ctx) return;
  ctx.operation = operation;
  if (typeof body === 'object' && body !== null) {
    const b = body as Record<string, unknown>;
    ctx.assets = Array.isArray(b.assets) ? b.assets.length : Array.isArray(b.items) ? b.items.length : typeof b.asset_id === 'string' || typeof b.brand === 'string' ? 1 : undefined;
  }
}
