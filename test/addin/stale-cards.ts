import { expect } from 'vitest';
import { cardOf, type SetResult } from './excel-harness';

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const serial = (iso: string) => (Date.parse(iso) - EXCEL_EPOCH_MS) / 86_400_000;

/**
 * The cards of a workbook recalculated without the service: each the online card's answer,
 * marked stale since the answer's own valid_until (the service's, asked directly). The cards
 * are the results from `first` on, one per entry of `validUntil` (asset `ids[i]`).
 */
export function expectStaleCards(results: SetResult[], online: SetResult[], validUntil: string[], first: number, ids: string[]): void {
  for (let i = 0; i < validUntil.length; i++) {
    const r = results[first + i]!;
    expect(r.ok, `card ${ids[i]}: ${r.message}`).toBe(true);
    const card = cardOf(r.value);
    const fresh = cardOf(online[first + i]!.value);
    expect(card.text).toBe(`${fresh.text} (stale)`);
    expect(card.layouts.card.title).toBe(`${fresh.layouts.card.title} (stale)`);
    expect(card.layouts.card.sections[0]!.properties[0]).toBe('Stale since');
    const { 'Stale since': staleSince, ...rest } = card.properties;
    expect(staleSince).toMatchObject({ type: 'FormattedNumber' });
    expect(staleSince!.basicValue as number).toBeCloseTo(serial(validUntil[i]!), 8);
    // The last known answer itself, its source included.
    expect(rest).toEqual(fresh.properties);
  }
}
