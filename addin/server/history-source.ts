import type { DatabaseUser } from '../../src/db';
import { assetHistory, monthEnds } from '../../src/db/queries';
import type { HistoryKind, HistoryMonthEnd } from '../../src/wire';

/** Where the host reads history from: the firm's history database (SVC_DB_URL), or a stand-in in tests. */
export interface HistorySource {
  /** The key's recorded month-ends in the range, oldest first; [] when none. */
  monthEnds(kind: HistoryKind, key: string, range: { from?: string; to?: string }): Promise<HistoryMonthEnd[]>;
}

/** The history database as the host's history source: a portfolio's month-ends, or an asset's value summed over the portfolios holding it. */
export function databaseHistory(database: DatabaseUser): HistorySource {
  return {
    // Each request has the database for its query alone (an embedded folder is then free for a month-end).
    monthEnds: (kind, key, range) =>
      database.use(async (db) => {
        if (kind === 'asset') return (await assetHistory(db, key, range)).map((m) => ({ as_of: m.asOf, value: m.value, net_flows: null, currency: m.currency }));
        return (await monthEnds(db, key, range)).map((m) => ({ as_of: m.asOf, value: m.value, net_flows: m.netFlows, currency: m.currency }));
      }),
  };
}
