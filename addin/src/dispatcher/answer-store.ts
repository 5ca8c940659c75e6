import { StorageBudget, type MachineStorage } from './machine-storage';

/**
 * One kept answer: the request's key, the service's answer, when it stopped being valid as
 * reckoned when it arrived, and when it arrived (epoch ms). Read back, nothing here is trusted
 * as written: trustedExpiry recomputes the expiry from the answer itself (docs/security.md).
 */
export type KeptAnswer<V> = [key: string, value: V, expiresAt: number, receivedAt: number];

const PREFIX = 'svc-addin:answers:';

/**
 * How long an answer past its validity is still kept, only to be shown as the last known
 * answer ("Stale since …") while the service cannot be reached.
 */
export const KEEP_EXPIRED_MS = 30 * 86_400_000;

/**
 * The longest an answer read back from the machine is served as current after it arrived,
 * whatever its valid_until says: values move daily (docs/decisions.md), so an answer claiming
 * longer was edited on the machine or is not worth trusting longer.
 */
export const STORED_TRUST_CAP_MS = 86_400_000;

/**
 * The expiry a kept answer is trusted with on read: the least of what was stored, what the
 * answer's own body gives (`recomputed`: its valid_until, reckoned as when it arrived) and
 * STORED_TRUST_CAP_MS past its arrival. Undefined (not trusted at all) when it claims to have
 * arrived later than now: the record was edited or the clock went back.
 */
export function trustedExpiry(entry: KeptAnswer<unknown>, recomputed: number, now: number): number | undefined {
  const [, , stored, receivedAt] = entry;
  if (!(receivedAt <= now)) return undefined;
  return Math.min(stored, recomputed, receivedAt + STORED_TRUST_CAP_MS);
}

export interface AnswerStoreOptions {
  /** At most this many answers per queue (oldest go first). */
  maxEntries?: number;
  /** Shared by every store on the same storage (OfficeRuntime.storage's 10 MB per add-in). */
  budget?: StorageBudget;
}

/**
 * Answers kept on the user's machine between sessions (reopening a workbook, copying a sheet),
 * one storage item per queue, oldest first. Only service answers are kept, never a token or a
 * credential. Bounded: at most `maxEntries` per queue, answers more than KEEP_EXPIRED_MS past
 * their validity dropped, and the stores together within the budget; when the storage refuses
 * (quota) the oldest half goes. A store that cannot be read or written behaves as empty
 * (privacy modes). Writes are serialised: the last one asked for is the one that lands.
 */
export class AnswerStore<V> {
  private readonly item: string;
  private readonly maxEntries: number;
  private readonly budget: StorageBudget;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: MachineStorage,
    namespace: string,
    options: AnswerStoreOptions = {},
  ) {
    this.item = PREFIX + namespace;
    this.maxEntries = options.maxEntries ?? 5_000;
    this.budget = options.budget ?? new StorageBudget();
  }

  /** The answers kept at `now` (valid ones and recently expired ones), oldest first, as stored: the caller re-checks them. */
  async load(now: number): Promise<KeptAnswer<V>[]> {
    try {
      const text = await this.storage.getItem(this.item);
      if (!text) return [];
      this.budget.record(this.item, text.length);
      const parsed = JSON.parse(text) as unknown;
      if (!Array.isArray(parsed)) return [];
      // Records without an arrival time (written before it was kept) are dropped: they are asked again.
      return (parsed as KeptAnswer<V>[]).filter(
        (e) => Array.isArray(e) && typeof e[0] === 'string' && Number.isFinite(e[2]) && Number.isFinite(e[3]) && isKept(e[2], now),
      );
    } catch {
      return [];
    }
  }

  /** Replaces what is kept with `entries` (oldest first), within the bounds. Resolves when written. */
  save(entries: KeptAnswer<V>[], now: number): Promise<void> {
    const kept = entries.filter((e) => isKept(e[2], now)).slice(-this.maxEntries);
    this.writing = this.writing.then(() => this.write(kept));
    return this.writing;
  }

  /** Forgets everything kept (SVC.REFRESH, the pane's Refresh). */
  clear(): Promise<void> {
    this.writing = this.writing.then(() => this.remove());
    return this.writing;
  }

  private async write(entries: KeptAnswer<V>[]): Promise<void> {
    let kept = entries;
    while (kept.length > 0) {
      const text = JSON.stringify(kept);
      if (text.length <= this.budget.allowance(this.item)) {
        try {
          await this.storage.setItem(this.item, text);
          this.budget.record(this.item, text.length);
          return;
        } catch {
          // Refused (quota): fall through and give up the oldest half.
        }
      }
      kept = kept.slice(Math.ceil(kept.length / 2));
    }
    await this.remove();
  }

  private async remove(): Promise<void> {
    this.budget.record(this.item, 0);
    try {
      await this.storage.removeItem(this.item);
    } catch {
      // nothing kept, nothing to clear
    }
  }
}

function isKept(expiresAt: number, now: number): boolean {
  return expiresAt + KEEP_EXPIRED_MS > now;
}
