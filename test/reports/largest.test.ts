import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largest } from '../../reports/run/largest';

describe('largest (the top holdings enrichment analyses)', () => {
  it('equals sorting by value, largest first, ties in position order, then taking n', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 60 }), fc.integer({ min: 0, max: 8 }), (values, n) => {
        const positions = values.map((_, i) => i);
        const expected = [...positions].sort((a, b) => values[b]! - values[a]! || a - b).slice(0, n);
        expect(largest(positions, n, (i) => values[i]!)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
