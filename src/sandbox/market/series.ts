import { SEGMENT_IDS, type Currency, type SegmentId } from '../../wire';
import { REFERENCE_DAY, SERIES_FIRST_DAY, SERIES_LAST_DAY } from './calendar';
import { mulberry32, normalGenerator, hash32 } from './random';
import { BENCHMARK_PROFILES, FX_LEVELS, SEGMENT_PROFILES } from './segment-profiles';

/**
 * A daily series over SERIES_FIRST_DAY..SERIES_LAST_DAY, computed once. Reading a day is an
 * array access, so valuations cost no recomputation.
 */
export class DailySeries {
  constructor(private readonly values: Float64Array) {}

  at(day: number): number {
    const i = (day < SERIES_FIRST_DAY ? SERIES_FIRST_DAY : day > SERIES_LAST_DAY ? SERIES_LAST_DAY : day) - SERIES_FIRST_DAY;
    return this.values[i]!;
  }

  /** Relative change from `days` before `day` to `day` (0.042 = +4.2%). */
  change(day: number, days: number): number {
    return this.at(day) / this.at(day - days) - 1;
  }

  /** Relative change between two days. */
  changeBetween(from: number, to: number): number {
    return this.at(to) / this.at(from) - 1;
  }
}

export interface TrendNoise {
  drift: number;
  spread: number;
  reversionDays: number;
}

/**
 * exp(drift·t + X_t) with X an Ornstein-Uhlenbeck deviation: prices follow a trend with
 * realistic day-to-day noise but never wander off (a Daytona stays near its level for years).
 * X is 0 on REFERENCE_DAY, the day the catalogue quotes, and is simulated forward and
 * backward from there (the process is time-reversible), so the catalogue's levels hold then.
 */
export function trendNoiseSeries(p: TrendNoise, seed: number, level = 1): DailySeries {
  const n = SERIES_LAST_DAY - SERIES_FIRST_DAY + 1;
  const out = new Float64Array(n);
  const normal = normalGenerator(mulberry32(seed));
  const k = 1 / p.reversionDays;
  const dailySd = p.spread * Math.sqrt(2 * k - k * k);
  const ref = REFERENCE_DAY - SERIES_FIRST_DAY;
  const put = (i: number, x: number) => {
    out[i] = level * Math.exp((p.drift * (i - ref)) / 365.25 + x);
  };
  put(ref, 0);
  let x = 0;
  for (let i = ref + 1; i < n; i++) {
    x = x * (1 - k) + dailySd * normal();
    put(i, x);
  }
  x = 0;
  for (let i = ref - 1; i >= 0; i--) {
    x = x * (1 - k) + dailySd * normal();
    put(i, x);
  }
  return new DailySeries(out);
}

export type BenchmarkName = keyof typeof BENCHMARK_PROFILES;

export interface MarketSeries {
  segment: Record<SegmentId, DailySeries>;
  /** Market activity relative to normal (1 = average). */
  volume: Record<SegmentId, DailySeries>;
  benchmark: Record<BenchmarkName, DailySeries>;
  /** Units of a currency per US dollar. */
  fx: Record<Exclude<Currency, 'USD'>, DailySeries>;
}

function seedFor(seed: number, name: string): number {
  return hash32(name, seed);
}

export function buildMarketSeries(seed: number): MarketSeries {
  const segment = {} as Record<SegmentId, DailySeries>;
  const volume = {} as Record<SegmentId, DailySeries>;
  for (const id of SEGMENT_IDS) {
    segment[id] = trendNoiseSeries(SEGMENT_PROFILES[id], seedFor(seed, `segment:${id}`));
    volume[id] = trendNoiseSeries({ drift: 0, spread: 0.18, reversionDays: 20 }, seedFor(seed, `volume:${id}`));
  }
  const benchmark = {} as Record<BenchmarkName, DailySeries>;
  for (const [name, p] of Object.entries(BENCHMARK_PROFILES) as [BenchmarkName, TrendNoise][]) {
    benchmark[name] = trendNoiseSeries(p, seedFor(seed, `benchmark:${name}`));
  }
  const fx = {} as Record<Exclude<Currency, 'USD'>, DailySeries>;
  for (const [cur, p] of Object.entries(FX_LEVELS) as [Exclude<Currency, 'USD'>, (typeof FX_LEVELS)['EUR']][]) {
    fx[cur] = trendNoiseSeries({ drift: 0, spread: p.spread, reversionDays: p.reversionDays }, seedFor(seed, `fx:${cur}`), p.level);
  }
  return { segment, volume, benchmark, fx };
}

/** US dollars -> currency on a day. */
export function fxRate(series: MarketSeries, currency: Currency, day: number): number {
  return currency === 'USD' ? 1 : series.fx[currency].at(day);
}
