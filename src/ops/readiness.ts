import { Gauge, type Registry } from 'prom-client';
import type { ServiceClient } from '../client';

/** One dependency readiness asks about: the service, Redis, the database. */
export interface ReadinessCheck {
  /** The key in the JSON body and the `check` label: service, redis, database. */
  readonly name: string;
  /** Resolves when the dependency answers; rejects with a sentence an operator can act on (no secret). */
  check(signal: AbortSignal): Promise<void>;
  /** How long an answer is kept before asking again (0: ask every time). */
  readonly cacheMs: number;
}

export interface CheckResult {
  ok: boolean;
  /** Why not, when not. */
  problem?: string;
  /** When the answer was had (ISO 8601). */
  checked_at: string;
}

export interface ReadinessReport {
  ready: boolean;
  /** Set while the process stops: a load balancer should send nothing new. */
  shutting_down?: true;
  checks: Record<string, CheckResult>;
  /** The names of the checks that failed, first to read. */
  not_ready: string[];
}

/** `/readyz` to a caller not authorised to see which dependency failed, or where it lives. */
export interface BareReadiness {
  ready: boolean;
  shutting_down?: true;
}

/** The default: the service is asked at most once a minute (a sign-in each time, which spends no budget). */
export const SERVICE_CHECK_MS = 60_000;
/** A dependency that takes longer than this to answer is not ready. */
const CHECK_TIMEOUT_MS = 5_000;

interface Cached {
  result: CheckResult;
  at: number;
}

/**
 * `/readyz`: asks each dependency, keeping each answer for the check's cacheMs; requests
 * arriving while a check runs share it. Never throws: a failure is a line in the body.
 */
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private readonly cached = new Map<string, Cached>();
  private readonly running = new Map<string, Promise<CheckResult>>();
  private stopping = false;

  constructor(
    checks: readonly ReadinessCheck[] = [],
    private readonly options: { now?: () => number; timeoutMs?: number; scrub?: (text: string) => string } = {},
  ) {
    for (const c of checks) this.add(c);
  }

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  /** The process is stopping: not ready from now on, whatever the dependencies say. */
  shuttingDown(): void {
    this.stopping = true;
  }

  async report(): Promise<ReadinessReport> {
    const entries = await Promise.all(this.checks.map(async (c) => [c.name, await this.result(c)] as const));
    const checks = Object.fromEntries(entries);
    const notReady = entries.filter(([, r]) => !r.ok).map(([n]) => n);
    return { ready: notReady.length === 0 && !this.stopping, ...(this.stopping ? { shutting_down: true as const } : {}), checks, not_ready: notReady };
  }

  /**
   * What `/readyz` answers: the whole report (each check, its problem naming the database's or
   * Redis's address) only with `detail` — on a metrics listener, or to a caller the product has
   * authorised; anyone else gets the bare status, which is all a load balancer needs.
   */
  async answer(detail: boolean): Promise<{ status: 200 | 503; body: ReadinessReport | BareReadiness }> {
    const report = await this.report();
    return { status: report.ready ? 200 : 503, body: detail ? report : { ready: report.ready, ...(report.shutting_down ? { shutting_down: true as const } : {}) } };
  }

  /** `svc_ready{check}`: 1 or 0 per dependency, read at each scrape from the same cached answers (alerts need no probe). */
  register(registry: Registry): void {
    const readiness = this;
    new Gauge({
      name: 'svc_ready',
      help: 'Whether each dependency answered its last readiness check (1) or not (0); check="process" is 0 while the process stops.',
      labelNames: ['check'],
      registers: [registry],
      async collect() {
        const r = await readiness.report();
        this.reset();
        this.set({ check: 'process' }, readiness.stopping ? 0 : 1);
        for (const [name, c] of Object.entries(r.checks)) this.set({ check: name }, c.ok ? 1 : 0);
      },
    });
  }

  private async result(c: ReadinessCheck): Promise<CheckResult> {
    const now = (this.options.now ?? Date.now)();
    const hit = this.cached.get(c.name);
    if (hit && now - hit.at < c.cacheMs) return hit.result;
    let running = this.running.get(c.name);
    if (!running) {
      running = this.run(c).finally(() => this.running.delete(c.name));
      this.running.set(c.name, running);
    }
    return running;
  }

  private async run(c: ReadinessCheck): Promise<CheckResult> {
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? CHECK_TIMEOUT_MS);
    let result: CheckResult;
    try {
      await abortable(c.check(signal), signal);
      result = { ok: true, checked_at: new Date().toISOString() };
    } catch (err) {
      const message = signal.aborted ? `no answer within ${(this.options.timeoutMs ?? CHECK_TIMEOUT_MS) / 1000} s` : err instanceof Error ? err.message : String(err);
      result = { ok: false, problem: (this.options.scrub ?? ((t) => t))(message), checked_at: new Date().toISOString() };
    }
    this.cached.set(c.name, { result, at: (this.options.now ?? Date.now)() });
    return result;
  }
}

/** A check that ignores its signal still ends the wait when the signal fires. */
function abortable(p: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The service: a fresh sign-in with the process's credentials (no budget spent), at most once per cacheMs. */
export function serviceCheck(client: Pick<ServiceClient, 'verifySignIn'>, cacheMs = SERVICE_CHECK_MS): ReadinessCheck {
  return {
    name: 'service',
    cacheMs,
    async check(signal) {
      try {
        await client.verifySignIn({ signal, timeoutMs: CHECK_TIMEOUT_MS });
      } catch (err) {
        const status = (err as { status?: number }).status;
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(status === 401 || status === 403 ? `the service refused this process's credentials (SVC_CLIENT_ID / SVC_CLIENT_SECRET): ${message}` : `cannot sign in to the service: ${message}`);
      }
    },
  };
}

/** Redis: a PING on the process's own connection (it fails at once while the connection is down). */
export function redisCheck(redis: { ping(): Promise<unknown> }, label: string): ReadinessCheck {
  return {
    name: 'redis',
    cacheMs: 0,
    async check() {
      try {
        await redis.ping();
      } catch (err) {
        throw new Error(`Redis at ${label} does not answer: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}

/** The history database (SVC_DB_URL): one `select 1` each time, like Redis's PING; the label names it without a password. */
export function databaseCheck(ping: () => Promise<unknown>, label: string): ReadinessCheck {
  return {
    name: 'database',
    cacheMs: 0,
    async check() {
      try {
        await ping();
      } catch (err) {
        throw new Error(`the history database at ${label} does not answer: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}
