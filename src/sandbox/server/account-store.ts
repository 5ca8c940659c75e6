import { randomBytes } from 'node:crypto';

/** Default cap per kind per account (docs/decisions.md): long benchmarks stay bounded. */
export const DEFAULT_STORE_LIMIT = 100_000;

/**
 * Records of one kind, kept apart per account: another account's id is simply not found.
 * Each account keeps its most recent `limit` records (oldest dropped first).
 */
export class AccountStore<T> {
  private readonly byAccount = new Map<string, Map<string, T>>();

  constructor(private readonly limit: number) {}

  put(clientId: string, id: string, record: T): void {
    let m = this.byAccount.get(clientId);
    if (!m) {
      m = new Map();
      this.byAccount.set(clientId, m);
    }
    m.set(id, record);
    if (m.size > this.limit) m.delete(m.keys().next().value!);
  }

  get(clientId: string, id: string): T | undefined {
    return this.byAccount.get(clientId)?.get(id);
  }
}

/** Unguessable ids such as val_3f9c…: they reveal neither order nor count. */
export function newId(prefix: 'val' | 'proj' | 'port' | 'batch'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
