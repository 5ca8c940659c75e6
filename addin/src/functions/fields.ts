import { parseSignedPercent, type SegmentDetail, type SegmentSignals } from '../../../src/wire';
import { percent, type FormattedNumber } from '../shared/cell-values';

type CellValue = string | number | boolean | FormattedNumber;

/** "+4.2%" from the wire becomes a real percentage number in the cell. */
function signedPercent(text: string): CellValue {
  const n = parseSignedPercent(text);
  return n === undefined ? text : percent(n);
}

const SIGNAL_EXTRACTORS = {
  change_7d: (s: SegmentSignals) => signedPercent(s.signals.price.change_7d),
  change_30d: (s: SegmentSignals) => signedPercent(s.signals.price.change_30d),
  change_90d: (s: SegmentSignals) => signedPercent(s.signals.price.change_90d),
  price_trend: (s: SegmentSignals) => s.signals.price.trend,
  momentum: (s: SegmentSignals) => s.signals.momentum.direction,
  momentum_strength: (s: SegmentSignals) => s.signals.momentum.strength,
  momentum_days: (s: SegmentSignals) => s.signals.momentum.duration_days,
  sentiment: (s: SegmentSignals) => s.signals.sentiment.overall,
  sentiment_score: (s: SegmentSignals) => s.signals.sentiment.score,
  sentiment_trend: (s: SegmentSignals) => s.signals.sentiment.trend,
  volume: (s: SegmentSignals) => s.signals.volume.level,
  volume_change: (s: SegmentSignals) => signedPercent(s.signals.volume.change_vs_avg),
  transactions_30d: (s: SegmentSignals) => s.signals.volume.transaction_count_30d,
} satisfies Record<string, (s: SegmentSignals) => CellValue>;

export type SignalField = keyof typeof SIGNAL_EXTRACTORS;
export const SIGNAL_FIELDS = Object.keys(SIGNAL_EXTRACTORS) as SignalField[];

export function signalField(signals: SegmentSignals, field: SignalField): CellValue {
  return SIGNAL_EXTRACTORS[field](signals);
}

const SEGMENT_EXTRACTORS = {
  name: (d: SegmentDetail) => d.name,
  asset_count: (d: SegmentDetail) => d.asset_count,
  avg_score: (d: SegmentDetail) => d.avg_service_score,
  momentum: (d: SegmentDetail) => d.momentum,
  liquidity: (d: SegmentDetail) => d.liquidity,
  ytd: (d: SegmentDetail) => signedPercent(d.performance.ytd),
  '1_year': (d: SegmentDetail) => signedPercent(d.performance['1_year']),
  '3_year': (d: SegmentDetail) => signedPercent(d.performance['3_year']),
  data_depth: (d: SegmentDetail) => d.data_depth,
  calibration_status: (d: SegmentDetail) => d.calibration_status,
  brands: (d: SegmentDetail) => d.brands.join(', '),
  top_asset: (d: SegmentDetail) => (d.top_assets[0] ? `${d.top_assets[0].brand} ${d.top_assets[0].model}` : ''),
  market_validated: (d: SegmentDetail) => d.market_validated,
} satisfies Record<string, (d: SegmentDetail) => CellValue>;

export type SegmentField = keyof typeof SEGMENT_EXTRACTORS;
export const SEGMENT_FIELDS = Object.keys(SEGMENT_EXTRACTORS) as SegmentField[];

export function segmentField(detail: SegmentDetail, field: SegmentField): CellValue {
  return SEGMENT_EXTRACTORS[field](detail);
}
