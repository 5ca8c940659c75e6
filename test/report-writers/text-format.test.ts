import { describe, expect, it } from 'vitest';
import { formatCompactMoney, formatLongDate, formatMoney, formatPercent, formatTimestamp } from '../../reports/writers/text-format';

describe('PDF text formats', () => {
  it('formats money in the report currency, including codes Intl does not know', () => {
    expect(formatMoney(1234567.891, 'USD')).toBe('$1,234,567.89');
    expect(formatMoney(1234567.891, 'EUR', 0)).toBe('€1,234,568');
    expect(formatMoney(-50, 'GBP')).toBe('-£50.00');
    expect(formatMoney(12, 'XBT')).toMatch(/12\.00/);
    expect(formatMoney(12, 'notacode')).toBe('12.00 notacode');
    expect(formatMoney(null, 'USD')).toBe('–');
    expect(formatCompactMoney(38_300, 'USD')).toBe('$38.3K');
  });

  it('formats percents with a real minus, optional plus, and never shows a holding as 0.0 %', () => {
    expect(formatPercent(12.345)).toBe('12.3 %');
    expect(formatPercent(-3.14, 1, true)).toBe('−3.1 %');
    expect(formatPercent(2, 1, true)).toBe('+2.0 %');
    expect(formatPercent(-0.01, 1, true)).toBe('+0.0 %');
    expect(formatPercent(0.04)).toBe('<0.1 %');
    expect(formatPercent(0)).toBe('0.0 %');
    expect(formatPercent(null)).toBe('–');
  });

  it('writes dates the way a client reads them', () => {
    expect(formatLongDate('2026-10-31')).toBe('31 October 2026');
    expect(formatTimestamp('2026-11-01T06:00:12Z')).toBe('1 November 2026, 06:00 UTC');
    expect(formatLongDate('soon')).toBe('soon');
  });
});
