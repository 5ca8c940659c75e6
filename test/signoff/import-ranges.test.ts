/**
 * What `history import` refuses to record (reports/history/import-ranges.ts): each kind of value
 * out of range is named by its field; a sane report passes. Pure: no command, no database.
 */
import { describe, expect, it } from 'vitest';
import type { ImportedReport } from '../../reports/history/read-reports';
import { valueProblem } from '../../reports/history/import-ranges';

const holding = { row: 2, asset_id: 'a-1', quantity: 1, purchase_date: '2021-05-10', purchase_price: 9000, current_value: 11000, value_low: 10000, value_high: 12000, confidence: 0.8 };
const report = (over: { summary?: object; holding?: object; as_of?: string } = {}) =>
  ({ portfolio: { name: 'Okafor Household' }, as_of: over.as_of ?? '2026-10-31', currency: 'USD', summary: { current_value: 11000, ...over.summary }, holdings: [{ ...holding, ...over.holding }] }) as unknown as ImportedReport;

describe('history import: the values it records are range-checked', () => {
  it('passes a sane report', () => {
    expect(valueProblem(report())).toBeUndefined();
    expect(valueProblem(report({ holding: { current_value: null, value_low: null, value_high: null, confidence: null } }))).toBeUndefined();
  });

  it.each([
    [{ summary: { current_value: -5e300 } }, 'summary.current_value is negative (-5.00e+300)'],
    [{ summary: { current_value: Infinity } }, 'summary.current_value is not a finite number'],
    [{ summary: { current_value: 5e300 } }, 'summary.current_value is 5.00e+300, above the 1e+15'],
    [{ holding: { purchase_price: -1 } }, 'holdings.0 (row 2).purchase_price is negative'],
    [{ holding: { value_high: 2e15 } }, 'holdings.0 (row 2).value_high is 2.00e+15, above'],
    [{ holding: { quantity: 0 } }, 'holdings.0 (row 2).quantity must be a positive number'],
    [{ holding: { confidence: 7 } }, 'holdings.0 (row 2).confidence must be between 0 and 1'],
    [{ holding: { purchase_date: '2027-01-01' } }, "holdings.0 (row 2).purchase_date 2027-01-01 is not between 1900-01-01 and the report's as_of 2026-10-31"],
    [{ holding: { purchase_date: '1850-01-01' } }, 'purchase_date 1850-01-01 is not between'],
    [{ as_of: '2999-12-31' }, 'as_of 2999-12-31 is outside 1990-01-01 to 2100-12-31'],
  ])('refuses %j, naming the field', (over, message) => {
    expect(valueProblem(report(over))).toContain(message);
  });
});
