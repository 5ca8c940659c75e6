import { DailyLimitExhaustedError } from './errors';
import { AccountLimit, type LimitSource } from './account-limit';
import type { RateObservation } from './rate-headers';
import { WaiterQueue } from './waiter-queue';

export interface GateLimits {
  /**
   * Requests per minute window expected until the service states the account's own (the tier's
   * published figure); undefined when nothing is expected: one request goes first and its
   * X-RateLimit-Limit says it.
   */
  perMinute?: number;
  perDay?: number;
  /** A ceiling of the caller's own (explicit limits): never exceeded, whatever the service states. */
  ceilingPerMinute?: number;
  ceilingPerDay?: number;
  minuteMs: number;
  dayMs: number;
  /**
   * Added to the minute window when pacing and logging. The service counts arrivals in fixed
   * windows; the client sees send times. The margin absorbs the difference (network and event
   * loop jitter), so no fixed window ever holds more than the limit. Default: 1.5% of the
   * window, at least 10 ms.
   */
  marginMs?: number;
}

export interface Permit {
  /** Grant number, used to tell which grants an observation could not yet have counted. */
  readonly seq: number;
  readonly grantedAt: number;
}

export interface RateLimitStatus {
  minuteLimit: number | undefined;
  minuteRemaining: number | undefined;
  dayLimit: number | undefined;
  dayRemaining: number | undefined;
  /** When the minute budget next has room again (or is whole again when it has room now). */
  resetsAt: Date | undefined;
  dayResetsAt: Date | undefined;
  /** Where each limit in force came from (undefined while none is known). */
  minuteLimitSource?: LimitSource;
  dayLimitSource?: LimitSource;
}

/**
 * What the transport needs of an account's budget. RateGate keeps it in this process; a
 * shared implementation (src/scale-out/redis-gate.ts, Node only) keeps it in Redis for every
 * process of the account. Updates after an answer are synchronous for the caller: a shared
 * gate sends them on and keeps a local view.
 */
export interface AccountGate {
  /** A second client of the same account may expect a stricter tier or set a stricter ceiling; the gate keeps the stricter of each. */
  tighten(limits: Partial<GateLimits>): void;
  /** The pace in calls per ms, or undefined while no limit is known. */
  readonly callsPerMs: number | undefined;
  /** Waits for a slot; rejects with DailyLimitExhaustedError when the day is spent, or AbortedError. */
  acquire(signal?: AbortSignal): Promise<Permit>;
  /** Folds in what an answer said (any status); `answered` is false when the request got none. */
  observe(permit: Permit | undefined, obs: RateObservation, answered?: boolean): void;
  /** A 429: the whole account waits (a hold), or only this request; the day running out is an error. */
  rateLimited(permit: Permit | undefined, obs: RateObservation): { daily: DailyLimitExhaustedError } | { waitMs: number };
  /** A slot granted but never used. */
  unused(permit: Permit): void;
  /** The service spent nothing on this request (a 401 or 429). */
  refund(permit: Permit | undefined): void;
  status(): RateLimitStatus;
}

/** A budget the service reported, and the grant it was reported for. */
interface ServerView {
  remaining: number;
  resetAt: number;
  seq: number;
}

/**
 * One account's request budget in this process, shared by every client instance of the
 * account (see gate-registry.ts).
 *
 * - Minute: a sliding-window log of the last `perMinute` grants over window + margin, so any
 *   fixed, epoch-aligned window of the service holds at most `perMinute` arrivals; and pacing
 *   at (window + margin) / perMinute (GCRA: a theoretical time per grant), so the budget is
 *   spread evenly instead of spent in a burst followed by a stall. A few missed slots
 *   (catchUpSlots) may be made up, at no less than half a spacing apart.
 * - Day: a fixed window aligned to the epoch like the service's; when it is spent the gate
 *   fails fast with DailyLimitExhaustedError rather than sleeping for hours.
 * - Both are corrected by the service's X-RateLimit-* headers: another process using the
 *   same account, or a different limit than configured, shows up there.
 * - A 429 blocks the whole gate until the reset the service named (capped at one window).
 */
export class RateGate implements AccountGate {
  private limits: { perMinute: number | undefined; perDay: number | undefined; minuteMs: number; dayMs: number; marginMs: number };
  /** The limits' sources; `limits.perMinute/perDay` hold their values in force (refreshLimits). */
  private readonly minute: AccountLimit;
  private readonly day: AccountLimit;
  private readonly clock: () => number;
  private readonly queue = new WaiterQueue<Permit>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Times of the most recent grants, oldest first, at most perMinute of them. */
  private recent: number[] = [];
  private nextSeq = 1;
  /** Granted and not yet answered: their effect on the service's counters is not known yet. */
  private inFlight = 0;
  private lastGrant = -Infinity;
  /** Pacing (GCRA): the theoretical time of the next grant. */
  private tat = -Infinity;
  /** Nothing queued or in flight when the last request arrived: idle time earns no catch-up credit. */
  private wasIdle = true;
  private blockedUntil = 0;
  private dayWindow = -1;
  private dayCount = 0;
  private serverMinute: ServerView | undefined;
  private serverDay: ServerView | undefined;
  /** Whether any answer came yet: until then, with no limit known, one request at a time goes first (its headers say the limits). */
  private answered = false;

  constructor(limits: GateLimits, clock: () => number = Date.now) {
    this.clock = clock;
    this.minute = new AccountLimit(limits.perMinute, limits.ceilingPerMinute);
    this.day = new AccountLimit(limits.perDay, limits.ceilingPerDay);
    this.limits = {
      perMinute: this.minute.value,
      perDay: this.day.value,
      minuteMs: limits.minuteMs,
      dayMs: limits.dayMs,
      marginMs: limits.marginMs ?? defaultMargin(limits.minuteMs),
    };
  }

  tighten(limits: Partial<GateLimits>): void {
    this.minute.tighten(limits.perMinute, limits.ceilingPerMinute);
    this.day.tighten(limits.perDay, limits.ceilingPerDay);
    this.refreshLimits();
  }

  private refreshLimits(): void {
    this.limits.perMinute = this.minute.value;
    this.limits.perDay = this.day.value;
  }

  /** The pace: one grant per (window + margin) / limit. */
  get spacingMs(): number {
    const { perMinute, minuteMs, marginMs } = this.limits;
    return perMinute ? (minuteMs + marginMs) / perMinute : 0;
  }

  /** The pace in calls per ms (the inverse of spacingMs), or undefined while no limit is known. */
  get callsPerMs(): number | undefined {
    const spacing = this.spacingMs;
    return spacing > 0 ? 1 / spacing : undefined;
  }

  /** Waits for a slot; rejects with DailyLimitExhaustedError when the day is spent, or AbortedError. */
  acquire(signal?: AbortSignal): Promise<Permit> {
    if (this.queue.length === 0 && this.inFlight === 0) this.wasIdle = true;
    const permit = this.queue.wait(signal);
    this.pump();
    return permit;
  }

  /** Folds in what an answer said (any status); `answered` is false when the request got none. */
  observe(permit: Permit | undefined, obs: RateObservation, answered = true): void {
    const seq = permit?.seq ?? this.nextSeq - 1;
    if (permit) this.inFlight = Math.max(0, this.inFlight - 1);
    if (answered) this.answered = true;
    // The service's stated limits are the account's, above or below the tier's figure.
    this.minute.state(obs.minuteLimit);
    this.day.state(obs.dayLimit);
    this.refreshLimits();
    if (obs.minuteRemaining !== undefined && obs.minuteResetAt !== undefined) {
      this.serverMinute = newer(this.serverMinute, { remaining: obs.minuteRemaining, resetAt: obs.minuteResetAt, seq });
    }
    if (obs.dayRemaining !== undefined && obs.dayResetAt !== undefined) {
      this.serverDay = newer(this.serverDay, { remaining: obs.dayRemaining, resetAt: obs.dayResetAt, seq });
    }
    this.kick();
  }

  /**
   * A 429. When the service says the budget is spent (Remaining 0, or no headers), every
   * request of the account waits in the gate until the reset it named (capped at one window,
   * so a garbled header cannot park the client). When it says budget remains (an overloaded or
   * over-cautious server), only the refused request waits, for the returned number of ms.
   * The day running out is returned as an error instead (fail fast).
   */
  rateLimited(permit: Permit | undefined, obs: RateObservation): { daily: DailyLimitExhaustedError } | { waitMs: number } {
    this.refund(permit);
    this.observe(permit, obs);
    const now = this.clock();
    const day = this.dayBudget(now);
    if (day.remaining !== undefined && day.remaining <= 0) return { daily: this.dailyError(day.resetAt) };
    const cap = now + this.limits.minuteMs + this.limits.marginMs;
    if (obs.minuteRemaining !== undefined && obs.minuteRemaining > 0) {
      return { waitMs: Math.max(0, Math.min(obs.retryAt ?? now + this.spacingMs, cap) - now) };
    }
    const until = obs.minuteResetAt ?? obs.retryAt ?? now + this.spacingMs;
    this.blockedUntil = Math.max(this.blockedUntil, Math.min(until + this.limits.marginMs, cap));
    this.kick();
    return { waitMs: 0 };
  }

  /** A slot granted but never used (no token could be had): it frees the gate like an answer would. */
  unused(permit: Permit): void {
    this.refund(permit);
    this.observe(permit, {}, false);
  }

  /** The service spent nothing on this request (a 401 or 429): it does not count against today. */
  refund(permit: Permit | undefined): void {
    if (permit && Math.floor(permit.grantedAt / this.limits.dayMs) === this.dayWindow && this.dayCount > 0) this.dayCount--;
  }

  status(): RateLimitStatus {
    const now = this.clock();
    const { perMinute, perDay, minuteMs, marginMs } = this.limits;
    const window = minuteMs + marginMs;
    const inWindow = this.recent.filter((t) => t > now - window);
    let minuteRemaining = perMinute !== undefined ? Math.max(0, perMinute - inWindow.length) : undefined;
    let resetsAt = inWindow.length > 0 ? inWindow[0]! + window : now;
    const sm = this.serverMinute;
    if (sm && now < sm.resetAt) {
      const est = Math.max(0, sm.remaining - this.grantsAfter(sm.seq));
      minuteRemaining = minuteRemaining === undefined ? est : Math.min(minuteRemaining, est);
      if (est === 0) resetsAt = Math.max(resetsAt, sm.resetAt);
    }
    const day = this.dayBudget(now);
    return {
      minuteLimit: perMinute,
      minuteRemaining,
      dayLimit: perDay,
      dayRemaining: day.remaining === undefined ? undefined : Math.max(0, day.remaining),
      resetsAt: new Date(resetsAt),
      dayResetsAt: new Date(day.resetAt),
      minuteLimitSource: this.minute.source,
      dayLimitSource: this.day.source,
    };
  }

  private kick(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pump();
  }

  private pump(): void {
    if (this.timer !== undefined) return;
    while (this.queue.length > 0) {
      const now = this.clock();
      const day = this.dayBudget(now);
      if (day.remaining !== undefined && day.remaining <= 0) {
        // Answers still on their way may show budget left (an estimate counts every request
        // sent after the observation as spent): decide once they are in (observe() pumps).
        if (this.inFlight > 0) return;
        const err = this.dailyError(day.resetAt);
        this.queue.rejectAll(err);
        return;
      }
      const at = this.earliest(now);
      if (at === Infinity) return; // the first request's answer will say the limits (observe() pumps again)
      if (at > now) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, Math.ceil(at - now));
        return;
      }
      this.queue.resolveNext(this.grant(now));
    }
  }

  private grant(now: number): Permit {
    const { perMinute } = this.limits;
    this.lastGrant = now;
    // After idling the schedule restarts with no credit: catching up is for slots missed while
    // requests were waiting or in flight, not for time nobody wanted to send.
    const credit = perMinute === undefined ? 0 : (catchUpSlots(perMinute) - 1) * this.spacingMs;
    this.tat = (this.wasIdle ? now + credit : Math.max(this.tat, now)) + this.spacingMs;
    this.wasIdle = false;
    this.recent.push(now);
    const keep = perMinute ?? this.recent.filter((t) => t > now - this.limits.minuteMs - this.limits.marginMs).length;
    if (this.recent.length > keep) this.recent.splice(0, this.recent.length - keep);
    this.rollDay(now);
    this.dayCount++;
    this.inFlight++;
    return { seq: this.nextSeq++, grantedAt: now };
  }

  /** The earliest time the next grant may happen under every constraint. */
  private earliest(now: number): number {
    const { perMinute, minuteMs, marginMs } = this.limits;
    let at = Math.max(now, this.blockedUntil);
    if (perMinute === undefined && !this.answered && this.inFlight > 0) return Infinity;
    if (perMinute !== undefined) {
      // Even pacing with a small catch-up allowance: a slot missed because the event loop was
      // busy or every worker was waiting on a slow answer can be made up (up to catchUpSlots,
      // never closer than half a spacing), instead of being lost for good. The log bounds all.
      at = Math.max(at, this.tat - (catchUpSlots(perMinute) - 1) * this.spacingMs, this.lastGrant + this.spacingMs / 2);
      if (this.recent.length >= perMinute) at = Math.max(at, this.recent[this.recent.length - perMinute]! + minuteMs + marginMs);
    }
    const sm = this.serverMinute;
    if (sm && now < sm.resetAt && sm.remaining - this.grantsAfter(sm.seq) <= 0) at = Math.max(at, sm.resetAt + marginMs);
    return at;
  }

  private dayBudget(now: number): { remaining: number | undefined; resetAt: number } {
    this.rollDay(now);
    const localReset = (this.dayWindow + 1) * this.limits.dayMs;
    // Our own count is exact for this process; the service's view also sees other processes
    // of the account. The lower of the two wins.
    const { perDay } = this.limits;
    const local = perDay === undefined ? undefined : perDay - this.dayCount;
    const sd = this.serverDay;
    if (sd && now < sd.resetAt) {
      const server = sd.remaining - this.grantsAfter(sd.seq);
      return { remaining: local === undefined ? server : Math.min(local, server), resetAt: sd.resetAt };
    }
    return { remaining: local, resetAt: localReset };
  }

  private rollDay(now: number): void {
    const w = Math.floor(now / this.limits.dayMs);
    if (w !== this.dayWindow) {
      this.dayWindow = w;
      this.dayCount = 0;
    }
  }

  private grantsAfter(seq: number): number {
    return this.nextSeq - 1 - seq;
  }

  private dailyError(resetAt: number): DailyLimitExhaustedError {
    return new DailyLimitExhaustedError({ resetAt: new Date(resetAt), limit: this.limits.perDay });
  }
}

/**
 * How many missed pacing slots may be made up after a stall: 15 (a quarter of a Starter
 * window), at most a quarter of the limit, so a catch-up never resembles a window's burst.
 */
export function catchUpSlots(perMinute: number): number {
  return Math.max(1, Math.min(15, Math.floor(perMinute / 4)));
}

export function defaultMargin(minuteMs: number): number {
  return Math.max(10, minuteMs * 0.015);
}


/** Keeps the report of the latest window; within a window, the one that reflects the most grants. */
function newer(prev: ServerView | undefined, next: ServerView): ServerView {
  if (!prev || next.resetAt > prev.resetAt) return next;
  if (next.resetAt < prev.resetAt) return prev;
  return next.seq >= prev.seq ? next : prev;
}
