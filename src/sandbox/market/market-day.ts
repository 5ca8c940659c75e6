import type { SegmentId } from '../../wire';
import { REFERENCE_DAY, lastDayOfPreviousYear } from './calendar';
import { clamp } from './money';
import type { MarketSeries } from './series';
import { SEGMENT_PROFILES, annualVolatility } from './segment-profiles';

/**
 * A segment's state on one day, read from its price and volume series: the changes the
 * signals report, and momentum, sentiment and volume derived from them.
 */
export interface SegmentDay {
  segment: SegmentId;
  day: number;
  index: number;
  change7: number;
  change30: number;
  change90: number;
  changeYtd: number;
  change1y: number;
  change3y: number;
  /** Log distance of the index from its trend: negative means cheap against the trend. */
  deviation: number;
  momentum: 'positive' | 'neutral' | 'negative';
  momentumStrength: number;
  momentumDays: number;
  priceTrend: 'upward' | 'flat' | 'downward';
  sentimentScore: number;
  sentiment: 'bullish' | 'neutral' | 'bearish';
  sentimentTrend: 'improving' | 'stable' | 'deteriorating';
  volumeRatio: number;
  volumeLevel: 'high' | 'above_average' | 'average' | 'below_average' | 'low';
  transactions30d: number;
  signalStrength: number;
}

const MOMENTUM_BAND = 0.005;

export function momentumOf(change30: number): SegmentDay['momentum'] {
  return change30 > MOMENTUM_BAND ? 'positive' : change30 < -MOMENTUM_BAND ? 'negative' : 'neutral';
}

function sentimentScore(series: MarketSeries, segment: SegmentId, day: number): number {
  const vol = annualVolatility(SEGMENT_PROFILES[segment]);
  const s = series.segment[segment];
  const z30 = s.change(day, 30) / (vol * Math.sqrt(30 / 365));
  const z90 = s.change(day, 90) / (vol * Math.sqrt(90 / 365));
  return 1 / (1 + Math.exp(-(0.8 * z30 + 0.6 * z90)));
}

function volumeLevel(ratio: number): SegmentDay['volumeLevel'] {
  return ratio > 1.25 ? 'high' : ratio > 1.08 ? 'above_average' : ratio > 0.92 ? 'average' : ratio > 0.75 ? 'below_average' : 'low';
}

export function computeSegmentDay(series: MarketSeries, segment: SegmentId, day: number): SegmentDay {
  const p = SEGMENT_PROFILES[segment];
  const s = series.segment[segment];
  const change30 = s.change(day, 30);
  const momentum = momentumOf(change30);
  let momentumDays = 0;
  while (momentumDays < 365 && momentumOf(s.change(day - momentumDays - 1, 30)) === momentum) momentumDays++;
  const vol30 = annualVolatility(p) * Math.sqrt(30 / 365);
  const momentumStrength = Math.round(clamp(Math.abs(change30) / (2 * vol30), 0, 1) * 100) / 100;
  const score = sentimentScore(series, segment, day);
  const before = sentimentScore(series, segment, day - 7);
  const change90 = s.change(day, 90);
  const v = series.volume[segment];
  let volSum = 0;
  for (let i = 0; i < 30; i++) volSum += v.at(day - i);
  const volumeRatio = v.at(day);
  const years = (day - REFERENCE_DAY) / 365.25;
  return {
    segment,
    day,
    index: s.at(day),
    change7: s.change(day, 7),
    change30,
    change90,
    changeYtd: s.changeBetween(lastDayOfPreviousYear(day), day),
    change1y: s.change(day, 365),
    change3y: s.change(day, 1095),
    deviation: Math.log(s.at(day)) - p.drift * years,
    momentum,
    momentumStrength,
    momentumDays,
    priceTrend: change90 > 0.015 ? 'upward' : change90 < -0.015 ? 'downward' : 'flat',
    sentimentScore: Math.round(score * 100) / 100,
    sentiment: score >= 0.6 ? 'bullish' : score <= 0.4 ? 'bearish' : 'neutral',
    sentimentTrend: score - before > 0.05 ? 'improving' : score - before < -0.05 ? 'deteriorating' : 'stable',
    volumeRatio,
    volumeLevel: volumeLevel(volumeRatio),
    transactions30d: Math.round((p.monthlyTransactions * volSum) / 30),
    signalStrength: Math.round(clamp(0.5 * momentumStrength + Math.abs(score - 0.5), 0, 1) * 100) / 100,
  };
}
