/** What the store needs of the machine's storage: localStorage's synchronous surface. */
export type SyncStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** One kept answer: the request's key, the service's answer, and when it stops being valid (epoch ms). */
export type KeptAnswer<V> = [key: string, value: V, expiresAt: number];

const PREFIX = 'svc-addin:answers:';

/**
 * Answers kept on the user's machine between sessions (reopening a workbook, copying a sheet),
 * one storage item per queue, oldest first. Only service answers are kept, never a token or a
 * credential. Bounded: at most `maxEntries` per queue, and when the browser's quota is reached
 * the oldest half goes. A store that cannot be read or written behaves as empty (privacy modes).
 */
export class AnswerStore<V> {
  private readonly item: string;

  constructor(
    private readonly storage: SyncStorage,
    namespace: string,
    private readonly maxEntries = 5_000,
  ) {
    this.item = PREFIX + namespace;
  }

  /** The answers still valid at `now`, oldest first. */
  load(now: number): KeptAnswer<V>[] {
    try {
      const text = this.storage.getItem(this.item);
      if (!text) return [];
      const parsed = JSON.parse(text) as unknown;
      if (!Array.isArray(parsed)) return [];
      return (parsed as KeptAnswer<V>[]).filter((e) => Array.isArray(e) && typeof e[0] === 'string' && typeof e[2] === 'number' && e[2] > now);
    } catch {
      return [];
    }
  }

  save(entries: KeptAnswer<V>[]): void {
    let kept = entries.slice(-this.maxEntries);
    while (kept.length > 0) {
      try {
        this.storage.setItem(this.item, JSON.stringify(kept));
        return;
      } catch {
        // Over the quota: give up the oldest half and try again.
        kept = kept.slice(Math.ceil(kept.length / 2));
      }
    }
    this.clear();
  }

  clear(): void {
    try {
      this.storage.removeItem(this.item);
    } catch {
      // nothing kept, nothing to clear
    }
  }
}
