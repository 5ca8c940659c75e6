import { describe, expect, it } from 'vitest';
import { parseTextTable } from '../../src/text-table';
import { EXIT_CHANNELS } from '../../src/sandbox/market/exit-channels';
import { CATALOGUE } from '../../examples/catalogue';

/**
 * Reference data written as text tables (the sandbox's exit channels, the examples' catalogue):
 * cells are read by their header, and a wrong cell is refused naming its line and column.
 */
const TABLE = `
  name   | kind    | price  | years     | units
  # a note, skipped
  Alpha  | auction | 12_500 | 2004      | 1 2 3

  Beta   | dealer  | 7.5    | 2001-2009 |
`;

describe('text tables', () => {
  it('reads each cell under its header: numbers with _ grouping, ranges, lists, empty cells', () => {
    const [alpha, beta, ...rest] = parseTextTable(TABLE);
    expect(rest).toEqual([]);
    expect(alpha!.text('name')).toBe('Alpha');
    expect(alpha!.line).toBe(4);
    expect(alpha!.number('price')).toBe(12_500);
    expect(alpha!.range('years', '-')).toEqual([2004, 2004]);
    expect(alpha!.numbers('units')).toEqual([1, 2, 3]);
    expect(beta!.range('years', '-')).toEqual([2001, 2009]);
    expect(beta!.given('units')).toBe(false);
    expect(beta!.given('no such column')).toBe(false);
    expect(beta!.oneOf('kind', ['auction', 'dealer'])).toBe('dealer');
  });

  it('refuses a wrong cell naming the line, the column and what is allowed', () => {
    const [alpha, beta] = parseTextTable(TABLE);
    expect(() => alpha!.oneOf('kind', ['dealer', 'marketplace'])).toThrow('table line 4, column "kind": "auction" is not one of dealer, marketplace');
    expect(() => alpha!.number('name')).toThrow('table line 4, column "name": "Alpha" is not a number');
    expect(() => beta!.number('units')).toThrow('table line 6, column "units": "" is not a number');
    expect(() => beta!.text('colour')).toThrow('table line 6: no column "colour"');
    expect(() => parseTextTable('a | b\n1 | 2 | 3')).toThrow('table line 2: 3 cells, the header names 2 (a, b)');
  });

  it('the tables written this way hold what they did as object literals', () => {
    expect(EXIT_CHANNELS).toHaveLength(45);
    expect(EXIT_CHANNELS.find((c) => c.id === 'sothebys_wine')).toEqual({ id: 'sothebys_wine', name: "Sotheby's Wine auction", kind: 'auction', segments: ['wine', 'spirits'], commission_percent: 12, timeline_days: '45-90' });
    expect(CATALOGUE).toHaveLength(103);
    expect(CATALOGUE.find((c) => c.model === 'Untitled (drawing on paper)')).toEqual({
      segment: 'art', brand: 'Jean-Michel Basquiat', model: 'Untitled (drawing on paper)', years: [1982, 1982], price: 2_400_000,
      medium: 'oilstick and crayon on paper', sizeCm: [57, 76], unique: true,
    });
    expect(Object.keys(CATALOGUE.find((c) => c.segment === 'real_estate')!)).toEqual(['segment', 'brand', 'model', 'price']);
  });
});
