import type { ExitRow, ProjectionRow } from '../report-data';

/**
 * One asset held several times (in one portfolio or across several) as one row of a
 * "largest holdings" table: money summed, the asset's percentages kept (weighted by value when
 * they differ), the portfolios listed.
 */
export function groupByAsset<T extends ProjectionRow | ExitRow>(rows: readonly T[], money: readonly (keyof T)[], percents: readonly (keyof T)[]): T[] {
  const groups = new Map<string, T[]>();
  for (const r of rows) groups.set(r.asset_id, [...(groups.get(r.asset_id) ?? []), r]);
  return [...groups.values()].map((g) => {
    if (g.length === 1) return g[0]!;
    const total = g.reduce((s, r) => s + r.current_value, 0);
    const merged: T = { ...g[0]! };
    for (const k of money) {
      const values = g.map((r) => r[k] as unknown as number | null);
      (merged[k] as unknown as number | null) = values.some((v) => v === null) ? null : values.reduce<number>((s, v) => s + v!, 0);
    }
    for (const k of percents) {
      const values = g.map((r) => r[k] as unknown as number | null);
      (merged[k] as unknown as number | null) = values.some((v) => v === null) || total === 0 ? values[0]! : g.reduce((s, r) => s + (r[k] as unknown as number) * r.current_value, 0) / total;
    }
    merged.current_value = total;
    merged.holding_count = g.reduce((s, r) => s + r.holding_count, 0);
    merged.portfolio = [...new Set(g.map((r) => r.portfolio))].join(', ');
    merged.confidence = Math.min(...g.map((r) => r.confidence));
    merged.market_validated = g.every((r) => r.market_validated);
    return merged;
  });
}

export const PROJECTION_MONEY = ['central_value_36m', 'conservative_value_36m', 'optimistic_value_36m'] as const;
export const PROJECTION_PERCENTS = ['expected_roi_12m_percent', 'expected_roi_24m_percent', 'expected_roi_36m_percent'] as const;
export const EXIT_MONEY = ['primary_estimated_net', 'secondary_estimated_net'] as const;
export const EXIT_PERCENTS = ['primary_commission_percent', 'hold_12m_roi_percent'] as const;

