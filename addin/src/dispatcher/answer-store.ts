import { StorageBudget, type MachineStorage } from './machine-storage';

/** One kept answer: the request's key, the service's answer, and when it stops being valid (epoch ms). */
export type KeptAnswer<V> = [key: string, value: V, expiresAt: number];

const PREFIX = 'svc-addin:answers:';

/**
 * How long an answer past its validity is still kept, only to be shown as the last known
 * answer ("Stale since …") while the service cannot be reached.
 */
export const KEEP_EXPIRED_MS = 30 * 86_400_000;

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

  /** The answers kept at `now` (valid ones and recently expired ones), oldest first. */
  async load(now: number): Promise<KeptAnswer<V>[]> {
    try {
      const text = await this.storage.getItem(this.item);
      if (!text) return [];
      this.budget.record(this.item, text.length);
      const parsed = JSON.parse(text) as unknown;
      if (!Array.isArray(parsed)) return [];
      return (parsed as KeptAnswer<V>[]).filter((e) => Array.isArray(e) && typeof e[0] === 'string' && typeof e[2] === 'number' && isKept(e[2], now));
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
