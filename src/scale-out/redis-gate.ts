import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DailyLimitExhaustedError, RateGate, type AccountGate, type GateLimits, type Permit, type RateLimitStatus, type RateObservation } from '../client';
import { defaultMargin } from '../client/rate-gate';
import { AccountLimit } from '../client/account-limit';
import { WaiterQueue } from '../client/waiter-queue';
import { GATE_SCRIPT } from './gate-script';

export interface RedisGateOptions {
  redis: Redis;
  /** The account: baseUrl#clientId (accountKey). */
  account: string;
  limits: GateLimits;
  /** Where the gate says Redis went away or came back (stderr for the CLI, the host's log). */
  log: (line: string) => void;
  /** How Redis is named in those lines (no password): describeRedisUrl(url). */
  redisLabel: string;
  /** How often this process says it is alive (default: the minute window, at most 5 s). */
  heartbeatMs?: number;
}

interface SharedPermit extends Permit {
  /** Granted by Redis (true) or by the local share while Redis was away (false). */
  readonly shared: boolean;
}

type Reply = [code: number, a: number, b: number, perMinute: number, minuteRemaining: number, resetsInMs: number, perDay: number, dayRemaining: number, dayResetsInMs: number, statedPerMinute: number, statedPerDay: number];

type GateRedis = Redis & { svcGate(...args: (string | number)[]): Promise<Reply> };

const isShared = (p: Permit | undefined): boolean => (p as SharedPermit | undefined)?.shared === true;

/**
 * The account's rate gate kept in Redis (gate-script.ts), for any number of processes on any
 * number of machines: one atomic script decides each grant, and every process's answers
 * (X-RateLimit-* views, 429 holds, refunds) update the same state.
 *
 * In this process, waiters queue locally and only the head asks Redis, so Redis sees about one
 * request per pacing slot per process. When Redis stops answering, the gate says so and paces
 * on a local RateGate at 1/N of the account's limits (N: the processes seen alive), so all
 * of them together stay under the limits; it rejoins once Redis is back and a whole window has
 * passed (the local grants have aged out of every window by then), adding them to the day.
 */
export class RedisRateGate implements AccountGate {
  private readonly redis: GateRedis;
  private readonly keys: [string, string, string];
  private readonly limits: { perMinute: number | undefined; perDay: number | undefined; minuteMs: number; dayMs: number; marginMs: number };
  /** The limits' sources (the service's stated ones are shared through Redis); `limits` holds their values in force. */
  private readonly minute: AccountLimit;
  private readonly day: AccountLimit;
  private readonly pid = randomUUID();
  private readonly queue = new WaiterQueue<Permit>();
  private pumping = false;
  private wake: (() => void) | undefined;
  private inFlight = 0;
  private wasIdle = true;
  private snapshot: RateLimitStatus;
  private peers = 1;
  private fallback: RateGate | undefined;
  private fallbackSince = 0;
  /** Day grants made by the local share, added to Redis's day count on rejoining. */
  private fallbackGrants = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** The service's latest word on the minute (all processes' use): the local share starts from it. */
  private lastObs: RateObservation | undefined;

  private constructor(private readonly opts: RedisGateOptions) {
    const redis = opts.redis as GateRedis;
    if (typeof redis.svcGate !== 'function') redis.defineCommand('svcGate', { numberOfKeys: 3, lua: GATE_SCRIPT });
    this.redis = redis;
    // One hash tag: the three keys live on one Redis Cluster slot, as a script needs.
    const tag = `svc:{${opts.account}}`;
    this.keys = [`${tag}:gate`, `${tag}:log`, `${tag}:peers`];
    const l = opts.limits;
    this.minute = new AccountLimit(l.perMinute, l.ceilingPerMinute);
    this.day = new AccountLimit(l.perDay, l.ceilingPerDay);
    this.limits = { perMinute: this.minute.value, perDay: this.day.value, minuteMs: l.minuteMs, dayMs: l.dayMs, marginMs: l.marginMs ?? defaultMargin(l.minuteMs) };
    this.snapshot = { minuteLimit: this.limits.perMinute, minuteRemaining: this.limits.perMinute, dayLimit: this.limits.perDay, dayRemaining: this.limits.perDay, resetsAt: undefined, dayResetsAt: undefined, ...this.sources() };
  }

  /** Joins the account's shared state (and reads it, so status() is right before the first call). */
  static async open(opts: RedisGateOptions): Promise<RedisRateGate> {
    const gate = new RedisRateGate(opts);
    await gate.beat();
    const every = opts.heartbeatMs ?? Math.min(5000, gate.limits.minuteMs);
    gate.heartbeat = setInterval(() => void gate.beat().catch((e) => gate.fallBack(e)), every);
    gate.heartbeat.unref();
    return gate;
  }

  /** Stops the heartbeat and leaves the account's list of live processes (best effort). */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    if (this.redis.status === 'ready') await this.redis.zrem(this.keys[2], this.pid).catch(() => undefined);
  }

  /** True while this process paces on its local share because Redis is away. */
  get onLocalShare(): boolean {
    return this.fallback !== undefined;
  }

  tighten(limits: Partial<GateLimits>): void {
    this.minute.tighten(limits.perMinute, limits.ceilingPerMinute);
    this.day.tighten(limits.perDay, limits.ceilingPerDay);
    this.refreshLimits();
    this.fallback?.tighten(asCeilings(this.share()));
  }

  private refreshLimits(): void {
    this.limits.perMinute = this.minute.value;
    this.limits.perDay = this.day.value;
  }

  private sources(): Pick<RateLimitStatus, 'minuteLimitSource' | 'dayLimitSource'> {
    return { minuteLimitSource: this.minute.source, dayLimitSource: this.day.source };
  }

  /**
   * The account's whole pace, not a share: a process may get every slot while the others are
   * idle, and a caller sizing its calls in flight from it only queues more in the gate when not.
   */
  get callsPerMs(): number | undefined {
    if (this.fallback) return this.fallback.callsPerMs;
    const { perMinute, minuteMs, marginMs } = this.limits;
    return perMinute ? perMinute / (minuteMs + marginMs) : undefined;
  }

  acquire(signal?: AbortSignal): Promise<Permit> {
    if (this.fallback && !this.rejoinDue()) return this.viaFallback(signal);
    if (this.queue.length === 0 && this.inFlight === 0) this.wasIdle = true;
    const permit = this.queue.wait(signal);
    if (!this.pumping) void this.pump();
    return permit;
  }

  observe(permit: Permit | undefined, obs: RateObservation, answered = true): void {
    this.minute.state(obs.minuteLimit);
    this.day.state(obs.dayLimit);
    this.refreshLimits();
    if (obs.minuteRemaining !== undefined && obs.minuteResetAt !== undefined) this.lastObs = obs;
    if (permit && isShared(permit)) this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.fallback) this.fallback.observe(isShared(permit) ? undefined : permit, obs, answered);
    else {
      const now = Date.now();
      const rel = (at: number | undefined) => (at === undefined ? '' : Math.max(0, at - now));
      const opt = (n: number | undefined) => (n === undefined ? '' : n);
      this.send('observe', permit?.seq ?? '', answered ? '1' : '0', opt(obs.minuteLimit), opt(obs.minuteRemaining), rel(obs.minuteResetAt), opt(obs.dayLimit), opt(obs.dayRemaining), rel(obs.dayResetAt));
    }
    this.kick();
  }

  rateLimited(permit: Permit | undefined, obs: RateObservation): { daily: DailyLimitExhaustedError } | { waitMs: number } {
    if (this.fallback) {
      if (isShared(permit)) this.inFlight = Math.max(0, this.inFlight - 1);
      return this.fallback.rateLimited(isShared(permit) ? undefined : permit, obs);
    }
    this.refund(permit);
    this.observe(permit, obs);
    const now = Date.now();
    if (obs.dayRemaining !== undefined && obs.dayRemaining <= 0) {
      return { daily: new DailyLimitExhaustedError({ resetAt: new Date(obs.dayResetAt ?? now + this.limits.dayMs), limit: this.limits.perDay }) };
    }
    const spacing = this.limits.perMinute ? (this.limits.minuteMs + this.limits.marginMs) / this.limits.perMinute : 1000;
    const cap = now + this.limits.minuteMs + this.limits.marginMs;
    if (obs.minuteRemaining !== undefined && obs.minuteRemaining > 0) {
      return { waitMs: Math.max(0, Math.min(obs.retryAt ?? now + spacing, cap) - now) };
    }
    // The budget is spent: every process of the account waits until the reset the service named.
    const until = obs.minuteResetAt ?? obs.retryAt ?? now + spacing;
    this.send('hold', Math.max(0, Math.min(until + this.limits.marginMs, cap) - now));
    return { waitMs: 0 };
  }

  unused(permit: Permit): void {
    this.refund(permit);
    this.observe(permit, {}, false);
  }

  refund(permit: Permit | undefined): void {
    if (!permit) return;
    if (!isShared(permit)) {
      this.fallback?.refund(permit);
      this.fallbackGrants = Math.max(0, this.fallbackGrants - 1);
    } else if (!this.fallback) this.send('refund', permit.grantedAt);
  }

  status(): RateLimitStatus {
    if (!this.fallback) return { ...this.snapshot };
    // On the local share the budget left is this process's; the limits are still the account's
    // (the share is a pace, not what the account allows).
    return { ...this.fallback.status(), minuteLimit: this.limits.perMinute, dayLimit: this.limits.perDay, ...this.sources() };
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        if (this.fallback) {
          if (!this.rejoinDue() || !(await this.rejoin())) return this.handOver();
        }
        let reply: Reply;
        try {
          reply = await this.call('acquire', this.wasIdle ? '1' : '0', this.pid);
        } catch (e) {
          this.fallBack(e);
          continue;
        }
        const [code, a, b] = reply;
        if (code === 1) {
          const permit: SharedPermit = { seq: a, grantedAt: b, shared: true };
          // A waiter that gave up while Redis was granting: the slot is given back to the day.
          if (this.queue.resolveNext(permit)) {
            this.inFlight++;
            this.wasIdle = false;
          } else this.send('refund', b);
        } else if (code === 2) {
          // Answers on their way may still show budget left: decide once they are in.
          if (this.inFlight > 0) await this.sleep(this.limits.minuteMs);
          else {
            const err = new DailyLimitExhaustedError({ resetAt: new Date(Date.now() + a), limit: this.limits.perDay });
            this.queue.rejectAll(err);
          }
        } else await this.sleep(Math.min(a, this.limits.minuteMs + this.limits.marginMs));
      }
    } finally {
      this.pumping = false;
    }
  }

  private call(op: string, ...args: (string | number)[]): Promise<Reply> {
    const { minuteMs, dayMs, marginMs } = this.limits;
    const { minute: m, day: d } = this;
    return this.redis.svcGate(...this.keys, op, minuteMs, dayMs, marginMs, m.expectedValue ?? '', d.expectedValue ?? '', m.ceilingValue ?? '', d.ceilingValue ?? '', ...args).then((r) => {
      this.applySnapshot(r);
      return r;
    });
  }

  /** An update whose answer nobody waits for; a failure means Redis is away. */
  private send(op: string, ...args: (string | number)[]): void {
    this.call(op, ...args).catch((e) => this.fallBack(e));
  }

  private async beat(): Promise<void> {
    const alive = 4 * (this.opts.heartbeatMs ?? Math.min(5000, this.limits.minuteMs));
    const [, peers] = await this.call('beat', this.pid, alive);
    this.peers = Math.max(1, peers);
  }

  private applySnapshot(r: Reply): void {
    const now = Date.now();
    const known = (n: number) => (n < 0 ? undefined : n);
    this.snapshot = {
      minuteLimit: known(r[3]),
      minuteRemaining: known(r[4]),
      resetsAt: new Date(now + Math.max(0, r[5])),
      dayLimit: known(r[6]),
      dayRemaining: known(r[7]),
      dayResetsAt: new Date(now + Math.max(0, r[8])),
    };
    // What any process of the account heard from the service.
    this.minute.state(known(r[9]));
    this.day.state(known(r[10]));
    this.refreshLimits();
    Object.assign(this.snapshot, this.sources());
  }

  /**
   * How many processes the local share assumes: those last seen alive, and never fewer than two. A
   * heartbeat can lag a peer that joined moments before Redis went away (seen on a loaded machine),
   * and Redis is configured because the account is shared: assuming company is the safe side.
   */
  private sharers(): number {
    return Math.max(2, this.peers);
  }

  /** The local share: 1/N of the minute limit and of what is left of the day (N: sharers()). */
  private share(): { perMinute: number | undefined; perDay: number | undefined } {
    const { perMinute } = this.limits;
    const dayLeft = this.snapshot.dayRemaining ?? this.limits.perDay;
    const n = this.sharers();
    return {
      perMinute: perMinute === undefined ? undefined : Math.max(1, Math.floor(perMinute / n)),
      perDay: dayLeft === undefined ? undefined : Math.floor(dayLeft / n),
    };
  }

  private fallBack(e: unknown): void {
    if (this.fallback) return;
    const share = this.share();
    // The share is a ceiling: the service's stated limit (the whole account's) must not lift it.
    this.fallback = new RateGate({ ...asCeilings(share), minuteMs: this.limits.minuteMs, dayMs: this.limits.dayMs, marginMs: this.limits.marginMs });
    this.fallbackSince = Date.now();
    this.fallbackGrants = 0;
    if (this.lastObs) this.fallback.observe(undefined, this.lastObs);
    const why = e instanceof Error ? e.message : String(e);
    const pace = share.perMinute === undefined ? 'one request at a time until the service states its limits' : `${share.perMinute} requests a minute`;
    const day = share.perDay === undefined ? '' : ` and ${share.perDay} for the rest of the day`;
    this.opts.log(
      `Redis at ${this.opts.redisLabel} is unreachable (${why}): the shared rate budget cannot be read. ` +
        `This process now paces on its own at a conservative share of the account (${pace}${day}; 1/${this.sharers()}: ${this.peers} process${this.peers === 1 ? '' : 'es'} last seen, never fewer than 2 assumed) until Redis is back.`,
    );
    this.kick();
  }

  private rejoinDue(): boolean {
    return this.redis.status === 'ready' && Date.now() - this.fallbackSince >= this.limits.minuteMs + this.limits.marginMs;
  }

  private async rejoin(): Promise<boolean> {
    try {
      await this.call('spent', this.fallbackGrants);
      await this.beat();
    } catch {
      return false;
    }
    this.fallback = undefined;
    this.opts.log(`Redis at ${this.opts.redisLabel} is back: this process shares the account's rate budget again.`);
    return true;
  }

  /** Waiters queued when Redis went away are served by the local share. */
  private handOver(): void {
    for (const w of this.queue.drain()) this.viaFallback(w.signal).then(w.resolve, w.reject);
  }

  private async viaFallback(signal: AbortSignal | undefined): Promise<Permit> {
    const p = await this.fallback!.acquire(signal);
    this.fallbackGrants++;
    const permit: SharedPermit = { ...p, shared: false };
    return permit;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(1, Math.ceil(ms)));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /** New information (an answer, a hold, Redis gone): the head of the queue asks again now. */
  private kick(): void {
    this.wake?.();
  }
}

function asCeilings(share: { perMinute: number | undefined; perDay: number | undefined }): Partial<GateLimits> {
  return { ceilingPerMinute: share.perMinute, ceilingPerDay: share.perDay };
}
