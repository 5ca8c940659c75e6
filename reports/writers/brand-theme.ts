/** The colours a document is drawn in: the house palette, or a firm's brand over it (issue 28). */
import type { Brand } from '../../src/brand';
import { BENCHMARK_COLOURS, PALETTE, SERIES_COLOURS } from './palette';

export interface Theme {
  /** Bands, table header rows, headings, the portfolio's series (RRGGBB). */
  primary: string;
  /** Rules, highlights, the second series. */
  accent: string;
  /** One per segment in charts. */
  series: readonly string[];
  /** The portfolio's bar, then the benchmarks'. */
  benchmarks: readonly string[];
}

export const HOUSE_THEME: Theme = { primary: PALETTE.navy, accent: PALETTE.gold, series: SERIES_COLOURS, benchmarks: BENCHMARK_COLOURS };

/** A brand's colours first, the house colours after them (the house's own first two give way). */
export function themeOf(brand: Pick<Brand, 'primary' | 'accent'> | undefined): Theme {
  if (!brand?.primary && !brand?.accent) return HOUSE_THEME;
  const primary = brand.primary ?? PALETTE.navy;
  const accent = brand.accent ?? PALETTE.gold;
  return { primary, accent, series: [primary, accent, ...SERIES_COLOURS.slice(2)], benchmarks: [primary, accent, ...BENCHMARK_COLOURS.slice(2)] };
}
