import type { AccountGate, GateLimits, Permit, RateLimitStatus, RateObservation } from '../../src/client';
import { HttpProblem } from './http-util';
import { currentRequest } from './auth/request-context';
import { LocalUserDayCounts, type UserDayCounts } from './user-day-counts';
import { hostText } from './host-text';

interface Waiter {
  resolve(p: Permit): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface FairShareOptions {
  /** Upstream calls one user may cause per day (the account's day window), read at each call (it may follow the day's budget); undefined: no cap. */
  perUserDailyCap?: number | (() => number | undefined);
  /** Where the calls are counted (Redis when replicas share one account); default this process's memory. */
  counts?: UserDayCounts;
  /** The day window's length (the account's; default 24 h) and a clock, for the cap's reset. */
  dayMs?: number;
  now?: () => number;
  /** Told how long each call waited for its turn (ms), for the host's metrics. */
  onWait?: (ms: number) => void;
}

const NOBODY = 'address:unknown';

/**
 * The account's rate gate, shared round-robin between users. Each user's calls wait in their
 * own queue; only one request at a time waits in the account's gate, and the slot it gets goes
 * to the next user in turn who has something waiting. So when the minute budget is contended,
 * a user with 10 cells is served between the calls of a user with 5,000, not after them. The
 * user is the one of the browser request being handled (addin/server/auth/request-context).
 */
export class FairShareGate implements AccountGate {
  private readonly queues = new Map<string, Waiter[]>();
  /** Users with something waiting, in turn order (the next served is first). */
  private turn: string[] = [];
  private pending = false;
  /** What this process last learnt of each user's count (the status shows it; the cap asks `counts`). */
  private readonly known = new Map<string, { day: number; count: number }>();
  private readonly counts: UserDayCounts;

  constructor(
    private readonly inner: AccountGate,
    private readonly options: FairShareOptions = {},
  ) {
    this.counts = options.counts ?? new LocalUserDayCounts();
  }

  /** The per-user daily cap in force now, or undefined when there is none. */
  dailyCap(): number | undefined {
    const cap = this.options.perUserDailyCap;
    return typeof cap === 'function' ? cap() : cap;
  }

  get callsPerMs(): number | undefined {
    return this.inner.callsPerMs;
  }

  tighten(limits: Partial<GateLimits>): void {
    this.inner.tighten(limits);
  }

  /** Calls waiting for a slot, per user id (the status route shows a user theirs). */
  waiting(userId: string): number {
    return this.queues.get(userId)?.length ?? 0;
  }

  /** Users with at least one call waiting for their turn. */
  get usersWaiting(): number {
    return this.turn.length;
  }

  /** Upstream calls a user has caused in this day window, as far as this process has seen (countToday asks the shared count). */
  usedToday(userId: string): number {
    const k = this.known.get(userId);
    return k && k.day === this.day() ? k.count : 0;
  }

  /** Upstream calls a user has caused in this day window, every replica's included. */
  async countToday(userId: string): Promise<number> {
    const day = this.day();
    return this.learn(userId, day, await this.counts.get(userId, day));
  }

  async acquire(signal?: AbortSignal): Promise<Permit> {
    const ctx = currentRequest();
    const user = ctx?.user?.id ?? NOBODY;
    const cap = this.dailyCap();
    if (cap !== undefined && (await this.countToday(user)) >= cap) throw capRefusal(cap);
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const queued = performance.now();
      const w: Waiter = {
        resolve: (p) => {
          if (ctx) ctx.upstreamCalls++;
          this.options.onWait?.(performance.now() - queued);
          resolve(p);
        },
        reject,
        signal,
      };
      if (signal) {
        w.onAbort = () => {
          const q = this.queues.get(user);
          const i = q?.indexOf(w) ?? -1;
          if (i >= 0) q!.splice(i, 1);
          if (q?.length === 0) this.drop(user);
          reject(signal.reason);
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      const q = this.queues.get(user);
      if (q) q.push(w);
      else {
        this.queues.set(user, [w]);
        this.turn.push(user);
      }
      this.pump();
    });
  }

  observe(permit: Permit | undefined, obs: RateObservation, answered?: boolean): void {
    this.inner.observe(permit, obs, answered);
  }

  rateLimited(permit: Permit | undefined, obs: RateObservation) {
    return this.inner.rateLimited(permit, obs);
  }

  unused(permit: Permit): void {
    this.inner.unused(permit);
  }

  refund(permit: Permit | undefined): void {
    this.inner.refund(permit);
  }

  status(): RateLimitStatus {
    return this.inner.status();
  }

  /** One request at a time waits in the account's gate; its slot goes to whoever's turn it is when it is granted. */
  private pump(): void {
    if (this.pending || this.turn.length === 0) return;
    this.pending = true;
    this.inner.acquire().then(
      async (permit) => {
        const w = await this.next().catch(() => undefined);
        this.pending = false;
        if (w) this.settle(w, () => w.resolve(permit));
        else this.inner.unused(permit);
        this.pump();
      },
      (err: unknown) => {
        // The day is spent (or the gate failed): everyone waiting hears it now rather than one per turn.
        this.pending = false;
        for (const user of this.turn.splice(0)) for (const w of this.queues.get(user) ?? []) this.settle(w, () => w.reject(err));
        this.queues.clear();
      },
    );
  }

  /**
   * The head waiter of the user whose turn it is, the call counted to them; that user goes to the
   * back of the turn. The count is taken before the cap is checked (one atomic step in Redis), so
   * two replicas granting at once cannot both pass the last call of a share; one past it is given back.
   */
  private async next(): Promise<Waiter | undefined> {
    while (this.turn.length > 0) {
      const user = this.turn.shift()!;
      const day = this.day();
      const count = this.learn(user, day, await this.counts.add(user, day));
      const cap = this.dailyCap();
      const q = this.queues.get(user) ?? [];
      if ((cap !== undefined && count > cap) || q.length === 0) {
        // Past the share (every waiting call of theirs hears it now), or nobody left waiting (aborted meanwhile).
        await this.counts.remove(user, day);
        this.learn(user, day, count - 1);
        if (q.length > 0) for (const w of q) this.settle(w, () => w.reject(capRefusal(cap!)));
        this.drop(user);
        continue;
      }
      const w = q.shift()!;
      if (q.length === 0) this.drop(user);
      else if (!this.turn.includes(user)) this.turn.push(user);
      return w;
    }
    return undefined;
  }

  private drop(user: string): void {
    this.queues.delete(user);
    this.turn = this.turn.filter((u) => u !== user);
  }

  private settle(w: Waiter, fn: () => void): void {
    if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
    fn();
  }

  private day(): number {
    return Math.floor((this.options.now ?? Date.now)() / (this.options.dayMs ?? 86_400_000));
  }

  private learn(user: string, day: number, count: number): number {
    this.known.set(user, { day, count });
    if (this.known.size > 10_000) for (const [u, k] of this.known) if (k.day !== day) this.known.delete(u);
    return count;
  }
}

function capRefusal(cap: number): HttpProblem {
  return new HttpProblem(429, 'user_daily_share_used', hostText('addin.host_daily_share_used', { cap: String(cap) }));
}
