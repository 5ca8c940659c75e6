/**
 * The machine's key-value storage as the add-in uses it: asynchronous, the shape of
 * `OfficeRuntime.storage` (getItem/setItem/removeItem return promises). localStorage is
 * wrapped into the same shape so the store above it has one code path.
 */
export interface MachineStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** localStorage (or anything with its synchronous surface) as a MachineStorage; its exceptions become rejections. */
export function asyncStorage(sync: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>): MachineStorage {
  return {
    getItem: async (key) => sync.getItem(key),
    setItem: async (key, value) => sync.setItem(key, value),
    removeItem: async (key) => sync.removeItem(key),
  };
}

/**
 * OfficeRuntime.storage allows 10 MB per add-in in all; our items share one budget below that
 * (in characters: JSON of answers is ASCII but for a few names, and the limit's unit is not
 * documented per encoding, so there is headroom). Each item's last written size is known, so an
 * item may take what the others leave.
 */
export const STORAGE_BUDGET_CHARS = 8_000_000;

export class StorageBudget {
  private readonly sizes = new Map<string, number>();

  constructor(readonly totalChars = STORAGE_BUDGET_CHARS) {}

  /** Characters `item` may use, given what the other items hold. */
  allowance(item: string): number {
    let others = 0;
    for (const [k, size] of this.sizes) if (k !== item) others += size;
    return Math.max(0, this.totalChars - others);
  }

  record(item: string, chars: number): void {
    if (chars > 0) this.sizes.set(item, chars);
    else this.sizes.delete(item);
  }

  get usedChars(): number {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    return total;
  }
}
