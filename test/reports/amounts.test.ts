import { describe, expect, it } from 'vitest';
import { detectMark, readAmount } from '../../src/holdings/amounts';

const comma = { mark: ',' as const, declared: true };
const point = { mark: '.' as const, declared: true };
const seenComma = { mark: ',' as const, declared: false };
const seenPoint = { mark: '.' as const, declared: false };

describe('amounts', () => {
  it('reads the unambiguous forms by their shape', () => {
    for (const [text, value] of [
      ['$12,500.00', 12500],
      ['£3,200', 3200],
      ['12 500', 12500],
      ['12.500,00 €', 12500],
      ['1,250,000', 1250000],
      ['1.250.000', 1250000],
      ['12,5', 12.5],
      ['12.50', 12.5],
      ['0.500', 0.5],
      ['USD 14,500.00', 14500],
      ["CHF 1'250.50", 1250.5],
      ['-$1,000', -1000],
      ['1e3', 1000],
      ['12500', 12500],
    ] as const) {
      expect(readAmount(text), text).toEqual({ value });
    }
    for (const text of ['twelve', '1 25', '14.5.3', '1,2,3']) expect(readAmount(text), text).toEqual({ error: 'not a number' });
  });

  it('never guesses "12.500", "€ 98.000" or "1.250": both readings, unless declared', () => {
    expect(readAmount('12.500')).toEqual({ ambiguous: [12.5, 12500] });
    expect(readAmount('€ 98.000')).toEqual({ ambiguous: [98, 98000] });
    expect(readAmount('1.250')).toEqual({ ambiguous: [1.25, 1250] });
    expect(readAmount('12,500')).toEqual({ ambiguous: [12500, 12.5] });
    expect(readAmount('€ 98.000', comma)).toEqual({ value: 98000 });
    expect(readAmount('12.500', point)).toEqual({ value: 12.5 });
    expect(readAmount('$12,500.00', comma)).toEqual({ error: 'not a number with a decimal comma' });
  });

  it('a detected convention settles a separator only as a thousands separator', () => {
    expect(readAmount('€ 98.000', seenComma)).toEqual({ value: 98000 });
    expect(readAmount('12,500', seenPoint)).toEqual({ value: 12500 });
    // "98.000" as 98 (three decimals) is the misreading: still refused in a column of 12,500.00.
    expect(readAmount('€ 98.000', seenPoint)).toEqual({ ambiguous: [98, 98000] });
    expect(readAmount('$12.500')).toEqual({ ambiguous: [12.5, 12500] });
  });

  it('detects a column\'s convention only when its self-explaining amounts agree', () => {
    expect(detectMark(['98.000', '12.500,00 €'])).toBe(',');
    expect(detectMark(['12,500', '$1,250.00', '9900'])).toBe('.');
    expect(detectMark(['12.500,00', '14,500.00'])).toBeUndefined();
    expect(detectMark(['12.500', '98.000', '1 200'])).toBeUndefined();
  });
});
