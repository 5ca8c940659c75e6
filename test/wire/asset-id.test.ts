import { describe, expect, it } from 'vitest';
import { ASSET_ID_PATTERN, SEGMENTS, brandCode, formatAssetId, isAssetId, parseAssetId, parseSegment } from '../../src/wire';

describe('asset ids', () => {
  it('formats the spec pattern with upper-case alphanumeric components', () => {
    const id = formatAssetId({ segment: 'watches', brand: 'Patek Philippe', model: 'Nautilus', reference: '5711/1A-010', year: 2019 });
    expect(id).toBe('SVC-WAT-PATPHI-57111A010-2019');
    expect(id).toMatch(ASSET_ID_PATTERN);
  });

  it('is stable for the same asset however it is typed', () => {
    const a = formatAssetId({ segment: 'watches', brand: 'Rolex', model: 'Daytona', reference: '116500LN', year: 2020 });
    const b = formatAssetId({ segment: 'watches', brand: ' ROLEX ', model: 'daytona', reference: '116500ln', year: 2020 });
    expect(a).toBe(b);
  });

  it('folds accents and punctuation, and falls back to the model without a reference', () => {
    const id = formatAssetId({ segment: 'wine', brand: 'Château Lafite Rothschild', model: 'Pauillac', year: 2010 });
    expect(id).toBe('SVC-WIN-CHALAFROT-PAUILLAC-2010');
    expect(brandCode('Hermès')).toBe('HERMES');
  });

  it('carries a size as a trailing part that parses back', () => {
    const id = formatAssetId({ segment: 'sneakers', brand: 'Nike', model: 'Air Jordan 1', reference: 'DZ5485-612', year: 2023, size: '10.5' });
    expect(id).toBe('SVC-SNK-NIKE-DZ5485612-2023-S10P5');
    expect(parseAssetId(id)).toEqual({ segment: 'sneakers', brand: 'NIKE', ref: 'DZ5485612', year: 2023, extra: ['S10P5'] });
  });

  it('parses ids without a year and refuses malformed ones', () => {
    expect(parseAssetId('SVC-ART-BANKSY-GIRLWITHBALLOON')).toMatchObject({ segment: 'art', year: undefined });
    for (const bad of ['SVC-XXX-ROLEX-1', 'svc-wat-rolex-1', 'SVC-WAT-ROLEX', 'ABC-WAT-ROLEX-1', 'SVC-WAT-RO LEX-1', '']) {
      expect(isAssetId(bad), bad).toBe(false);
    }
  });

  it('refuses to format an unknown segment', () => {
    expect(() => formatAssetId({ segment: 'yachts' as never, brand: 'Feadship', model: 'X' })).toThrow(/unknown segment 'yachts'/);
  });

  it('round-trips every segment code', () => {
    for (const s of SEGMENTS) {
      const id = formatAssetId({ segment: s.id, brand: 'Brand', model: 'Model' });
      expect(id.startsWith(`SVC-${s.code}-`)).toBe(true);
      expect(parseAssetId(id)?.segment).toBe(s.id);
    }
  });
});

describe('segments', () => {
  it('has the ten segments of the spec', () => {
    expect(SEGMENTS.map((s) => s.id)).toEqual(['watches', 'art', 'wine', 'sneakers', 'bags', 'cards', 'jewellery', 'automobiles', 'spirits', 'real_estate']);
  });

  it('reads what a person types', () => {
    expect(parseSegment('Watches')).toBe('watches');
    expect(parseSegment('real estate')).toBe('real_estate');
    expect(parseSegment('WIN')).toBe('wine');
    expect(parseSegment('Fine Wines')).toBe('wine');
    expect(parseSegment('jewelry')).toBe('jewellery');
    expect(parseSegment('yachts')).toBeUndefined();
  });
});
