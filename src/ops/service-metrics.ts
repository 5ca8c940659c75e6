import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallEvent, CallObserver, RateLimitStatus } from '../client';
import type { OperationName } from '../wire';
import type { Log } from './log';

/** Token operations: counted as sign-ins as well as calls. */
const SIGN_IN_OPERATIONS: ReadonlySet<OperationName> = new Set(['createToken', 'refreshToken']);

/** What the budget gauges read at each scrape: the account's gate as this process sees it. */
export interface BudgetSource {
  status(): RateLimitStatus;
  /** The gate's pace, or undefined while no limit is known. */
  callsPerMs(): number | undefined;
}

/**
 * The series every process that calls the service exposes (docs/operations.md lists them):
 * calls by operation and status, 429s, round trips, sign-ins to the service, the rate gate's
 * pace and the minute's and day's budget left, and Node's process metrics. One registry per
 * process (or per host in tests), never prom-client's global one.
 */
export class ServiceMetrics {
  readonly registry: Registry;
  private readonly calls: Counter<'operation' | 'status'>;
  private readonly rateLimited: Counter<'operation'>;
  private readonly roundTrip: Histogram<'operation'>;
  private readonly signIns: Counter<'result' | 'reason'>;
  private budget: BudgetSource | undefined;

  constructor(registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    collectDefaultMetrics({ register: registry });
    this.calls = new Counter({ name: 'svc_upstream_calls_total', help: 'Calls to the valuation service, token calls included, by operation and HTTP status (network_error, timeout or aborted when no answer came).', labelNames: ['operation', 'status'], registers });
    this.rateLimited = new Counter({ name: 'svc_upstream_rate_limited_total', help: "Answers 429 (Too Many Requests) from the valuation service, by operation.", labelNames: ['operation'], registers });
    this.roundTrip = new Histogram({ name: 'svc_upstream_round_trip_seconds', help: 'Time from a call leaving to its answer in hand (the wait in the rate gate excluded), by operation.', labelNames: ['operation'], buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers });
    this.signIns = new Counter({ name: 'svc_service_sign_ins_total', help: 'Sign-ins to the valuation service (token issued or renewed): accepted, or refused by reason.', labelNames: ['result', 'reason'], registers });
    const budget = () => this.budget;
    new Gauge({
      name: 'svc_rate_pace_calls_per_minute',
      help: "The rate gate's pace for the account: calls it lets leave per minute (absent while no limit is known).",
      registers,
      collect() {
        this.reset();
        const perMs = budget()?.callsPerMs();
        if (perMs !== undefined) this.set(perMs * 60_000);
      },
    });
    /** A gauge with one sample per window (minute, day), each absent while unknown. */
    const perWindow = (name: string, help: string, read: (s: RateLimitStatus) => [number | undefined, number | undefined]) =>
      new Gauge({
        name,
        help,
        labelNames: ['window'],
        registers,
        collect() {
          this.reset();
          const s = budget()?.status();
          const [minute, day] = s ? read(s) : [undefined, undefined];
          if (minute !== undefined) this.set({ window: 'minute' }, minute);
          if (day !== undefined) this.set({ window: 'day' }, day);
        },
      });
    perWindow('svc_rate_limit', "The account's request limit per window (minute or day), as configured or as the service's headers say.", (s) => [s.minuteLimit, s.dayLimit]);
    perWindow('svc_rate_remaining', "Calls left in the account's current minute and day windows, as this process's rate gate sees them (the service's headers included).", (s) => [s.minuteRemaining, s.dayRemaining]);
  }

  /** The account whose budget the gauges show (a process uses one account). */
  watchBudget(source: BudgetSource): void {
    this.budget = source;
  }

  /** Counts one exchange with the service. */
  record(e: CallEvent): void {
    const status = e.status > 0 ? String(e.status) : e.failure === 'timeout' ? 'timeout' : e.failure === 'aborted' ? 'aborted' : 'network_error';
    this.calls.inc({ operation: e.operation, status });
    if (e.status === 429) this.rateLimited.inc({ operation: e.operation });
    if (e.status > 0) this.roundTrip.observe({ operation: e.operation }, e.durationMs / 1000);
    if (SIGN_IN_OPERATIONS.has(e.operation)) {
      const accepted = e.status >= 200 && e.status < 300;
      this.signIns.inc({ result: accepted ? 'accepted' : 'refused', reason: accepted ? (e.operation === 'createToken' ? 'issued' : 'refreshed') : signInRefusal(e) });
    }
  }

  /**
   * The client's onCall: counts each exchange and logs it at debug with the service's request
   * id (a 429 or a 5xx at warn), so a figure in a graph can be traced to the service's logs.
   */
  observer(log?: Log, extra?: CallObserver): CallObserver {
    return (e) => {
      this.record(e);
      extra?.(e);
      if (log) logCall(log, e);
    };
  }

  /** The exposition Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** One exchange as a log line: debug, or warn for a 429 or a 5xx; always with the service's request id. */
export function logCall(log: Log, e: CallEvent): void {
  const fields = { operation: e.operation, status: e.status, duration_ms: Math.round(e.durationMs), request_id: e.requestId, attempt: e.attempt, failure: e.failure };
  if (e.status === 429 || e.status >= 500) log.warn(`the service answered ${e.status} to ${e.operation}`, fields);
  else log.debug(`${e.operation}: ${e.status || e.failure}`, fields);
}

function signInRefusal(e: CallEvent): string {
  if (e.status === 0) return e.failure === 'timeout' ? 'timeout' : 'unreachable';
  if (e.status === 401 || e.status === 403) return 'credentials_refused';
  if (e.status === 429) return 'rate_limited';
  if (e.status >= 500) return 'service_error';
  return `http_${e.status}`;
}
