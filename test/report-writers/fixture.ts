/**
 * Deterministic ReportData / DashboardData for the writer tests and bench/reports.ts. Built
 * directly (no sandbox): the writers are tested on the data model, the job on the sandbox.
 * Figures are internally consistent: summary, allocation, weights and concentration are
 * computed from the generated holdings, the way the job computes them.
 */
import { SEGMENTS } from '../../src/wire';
import { mulberry32 } from '../../src/sandbox/market/random';
import {
  composeDisclaimer,
  type Concentration,
  type DashboardData,
  type Holding,
  type ReportData,
  type ReportError,
  type ReportSummary,
  type AllocationRow,
} from '../../reports/report-data';


const MAKERS: Record<string, [string, string[]][]> = {
  watches: [['Rolex', ['Submariner Date 126610LN', 'Daytona 116500LN', 'GMT-Master II 126710BLRO']], ['Patek Philippe', ['Nautilus 5711/1A', 'Calatrava 5227G']], ['Audemars Piguet', ['Royal Oak 15500ST']]],
  art: [['Gerhard Richter', ['Abstraktes Bild', 'Kerze']], ['Yayoi Kusama', ['Pumpkin (yellow)', 'Infinity Nets']], ['Zao Wou-Ki', ['Sans titre']]],
  wine: [['Château Margaux', ['Premier Grand Cru Classé']], ['Domaine de la Romanée-Conti', ['La Tâche', 'Richebourg']], ['Penfolds', ['Grange']]],
  sneakers: [['Nike', ['Air Jordan 1 Chicago', 'Dunk Low Off-White']], ['Adidas', ['Yeezy Boost 350']]],
  bags: [['Hermès', ['Birkin 30 Togo', 'Kelly 28 Epsom']], ['Chanel', ['Classic Flap Medium']]],
  cards: [['Pokémon', ['Charizard 1st Edition PSA 10']], ['Topps', ['1952 Mickey Mantle #311']]],
  jewellery: [['Cartier', ['Panthère bracelet']], ['Van Cleef & Arpels', ['Alhambra necklace']]],
  automobiles: [['Ferrari', ['250 GT Lusso', 'F40']], ['Porsche', ['911 Carrera RS 2.7']]],
  spirits: [['The Macallan', ['Fine & Rare 1926']], ['Yamazaki', ['25 Year Old']]],
  real_estate: [['Knight Frank', ['Chelsea townhouse share']]],
};

/** Typical value of one unit, by segment, in USD. */
const UNIT_VALUE: Record<string, number> = {
  watches: 40_000, art: 900_000, wine: 2_500, sneakers: 3_000, bags: 35_000,
  cards: 60_000, jewellery: 80_000, automobiles: 1_200_000, spirits: 20_000, real_estate: 2_000_000,
};

/** Descriptions planted to prove formula injection is neutralised (row index → text). */
export const INJECTION_DESCRIPTIONS = ['=HYPERLINK("http://x","click")', '+1', '-2', '@SUM(A1:A2)', '\tTabbed', '\rCarriage'];

export interface FixtureOptions {
  holdings: number;
  seed?: number;
  /** Put the injection descriptions on the first rows (tests). */
  injections?: boolean;
  /** Number of error rows (rows that could not be valued). */
  errors?: number;
  /** Previous month-end report exists. */
  previous?: boolean;
  sandbox?: boolean;
  /** Tier lacks projections / exit / portfolio scopes: enrichment sections are omitted. */
  starterTier?: boolean;
  portfolioName?: string;
  currency?: string;
}

const AS_OF = '2026-10-31';
const ROUND = (n: number) => Math.round(n * 100) / 100;

const BRAND_CODES = new Map<string, string>();
/** Computed once per maker: Unicode normalisation per row would dominate a million-row run. */
function brandCodeOf(maker: string): string {
  let code = BRAND_CODES.get(maker);
  if (code === undefined) {
    code = maker.normalize('NFKD').replace(/[^A-Za-z]/g, '').toUpperCase().slice(0, 8);
    BRAND_CODES.set(maker, code);
  }
  return code;
}

/** Holding number i (0-based) of the generated portfolio: pure function of (seed, i). */
export function generateHolding(seed: number, i: number, opts: Pick<FixtureOptions, 'injections' | 'previous'>, total = 0): Holding {
  const r = mulberry32(seed * 1_000_003 + i);
  const seg = SEGMENTS[Math.floor(r() * SEGMENTS.length)]!;
  const makers = MAKERS[seg.id]!;
  const [maker, models] = makers[Math.floor(r() * makers.length)]!;
  const model = models[Math.floor(r() * models.length)]!;
  const year = 1950 + Math.floor(r() * 75);
  const quantity = seg.id === 'wine' || seg.id === 'spirits' ? 1 + Math.floor(r() * 24) : 1;
  const unit = UNIT_VALUE[seg.id]! * (0.3 + r() * 1.7);
  const purchase_price = ROUND(unit * quantity);
  const growth = 0.7 + r() * 0.9;
  const current_value = ROUND(purchase_price * growth);
  const spread = 0.06 + r() * 0.12;
  const confidence = Math.round((0.35 + r() * 0.6) * 100) / 100;
  const purchaseYear = 2008 + Math.floor(r() * 17);
  const purchase_date = `${purchaseYear}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
  const inMarket = opts.previous && r() > 0.1;
  const prev = current_value / (0.97 + r() * 0.06);
  const description =
    opts.injections && i < INJECTION_DESCRIPTIONS.length
      ? INJECTION_DESCRIPTIONS[i]!
      : `${maker} ${model} (${year})${quantity > 1 ? `, ${quantity} bottles` : ''}`;
  const brandCode = brandCodeOf(maker);
  return {
    row: i + 2,
    asset_id: `SVC-${seg.code}-${brandCode}-${String(100000 + i)}-${year}`,
    description,
    segment: seg.id,
    quantity,
    purchase_price,
    purchase_date,
    value_low: ROUND(current_value * (1 - spread)),
    current_value,
    value_high: ROUND(current_value * (1 + spread)),
    confidence,
    service_score: Math.floor(40 + r() * 60),
    momentum: ['positive', 'neutral', 'negative'][Math.floor(r() * 3)]!,
    return_percent: purchase_price > 0 ? Math.round(((current_value - purchase_price) / purchase_price) * 10000) / 100 : null,
    month_on_month_change: inMarket ? ROUND(current_value - prev) : null,
    month_on_month_percent: inMarket ? Math.round(((current_value - prev) / prev) * 10000) / 100 : null,
    market_validated: confidence >= 0.6,
    weight_percent: total > 0 ? (current_value / total) * 100 : 0,
  };
}

/** A re-iterable that regenerates the holdings on every pass: bounded memory at any size. */
function lazyHoldings(count: number, seed: number, total: number, opts: FixtureOptions): Iterable<Holding> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < count; i++) yield generateHolding(seed, i, opts, total);
    },
  };
}

export function makeReportData(opts: FixtureOptions): ReportData {
  const seed = opts.seed ?? 42;
  const n = opts.holdings;
  // One pass for the totals, allocation and the ten largest, as the job would compute them.
  const bySegment = new Map<string, { value: number; count: number }>();
  const summary: ReportSummary = {
    asset_count: n, segment_count: 0, total_invested: 0, current_value: 0, current_value_low: 0, current_value_high: 0,
    gain: 0, total_return_percent: 0, annualised_return_percent: null, month_on_month: null, market_validated_count: 0,
  };
  let top: { row: number; asset_id: string; description: string; value: number }[] = [];
  let prevTotal = 0;
  for (let i = 0; i < n; i++) {
    const h = generateHolding(seed, i, opts);
    summary.total_invested += h.purchase_price;
    summary.current_value += h.current_value;
    summary.current_value_low += h.value_low;
    summary.current_value_high += h.value_high;
    if (h.market_validated) summary.market_validated_count++;
    if (h.month_on_month_change !== null) prevTotal += h.current_value - h.month_on_month_change;
    const s = bySegment.get(h.segment) ?? { value: 0, count: 0 };
    s.value += h.current_value;
    s.count++;
    bySegment.set(h.segment, s);
    if (top.length < 10 || h.current_value > top[top.length - 1]!.value) {
      top.push({ row: h.row, asset_id: h.asset_id, description: h.description, value: h.current_value });
      top.sort((a, b) => b.value - a.value);
      top = top.slice(0, 10);
    }
  }
  for (const k of ['total_invested', 'current_value', 'current_value_low', 'current_value_high'] as const) summary[k] = ROUND(summary[k]);
  summary.segment_count = bySegment.size;
  summary.gain = ROUND(summary.current_value - summary.total_invested);
  summary.total_return_percent = summary.total_invested > 0 ? (summary.gain / summary.total_invested) * 100 : 0;
  summary.annualised_return_percent = summary.total_return_percent / 6.5;
  if (opts.previous) {
    const previous_value = ROUND(prevTotal);
    const change = ROUND(summary.current_value - previous_value);
    summary.month_on_month = { previous_as_of: '2026-09-30', previous_value, change, change_percent: (change / previous_value) * 100 };
  }
  const total = summary.current_value;
  const allocation: AllocationRow[] = [...bySegment.entries()]
    .map(([segment, s]) => ({
      segment,
      segment_name: SEGMENTS.find((x) => x.id === segment)!.name,
      asset_count: s.count,
      value: ROUND(s.value),
      percentage: (s.value / total) * 100,
    }))
    .sort((a, b) => b.value - a.value);
  const largest = top[0];
  const top10 = top.reduce((sum, t) => sum + t.value, 0);
  const concentration: Concentration = {
    largest_position: largest ? { ...largest, weight_percent: (largest.value / total) * 100 } : null,
    top10_share_percent: total > 0 ? (top10 / total) * 100 : 0,
    flags: [],
  };
  if (largest && largest.value / total > 0.1) {
    concentration.flags.push({ kind: 'single_position', message: `The largest position is ${((largest.value / total) * 100).toFixed(1)} % of the portfolio (guideline: at most 10 %).` });
  }
  if (allocation[0] && allocation[0].percentage > 40) {
    concentration.flags.push({ kind: 'segment', message: `${allocation[0].segment_name} is ${allocation[0].percentage.toFixed(1)} % of the portfolio (guideline: at most 40 %).` });
  }
  const errors: ReportError[] = [];
  for (let e = 0; e < (opts.errors ?? 0); e++) {
    errors.push(
      e % 3 === 0
        ? { row: n + 2 + e, field: 'segment', message: `Row ${n + 2 + e}: segment "yachts" is not one of watches, art, wine, sneakers, bags, cards, jewellery, automobiles, spirits, real_estate.` }
        : e % 3 === 1
          ? { row: n + 2 + e, field: 'purchase_date', message: `Row ${n + 2 + e}: purchase_date "2023-02-30" is not a date that exists (use YYYY-MM-DD).` }
          : { row: null, field: '', message: '=cmd|"/c calc"!A1 should appear as text: the service answered 500 twice for one batch; those rows were retried.' },
    );
  }
  const sandbox = opts.sandbox ?? true;
  const topRefs = top.slice(0, 5);
  return {
    cover: {
      client_name: 'Eleanor Whitcombe',
      portfolio_name: opts.portfolioName ?? 'Whitcombe Family Collection',
      portfolio_id: opts.starterTier ? null : 'port_7f3a2c91',
      as_of: AS_OF,
      currency: opts.currency ?? 'USD',
      report_id: `rpt_${AS_OF}_whitcombe`,
      generated_at: '2026-11-01T06:00:12Z',
      sandbox,
      prepared_by: 'Harcourt & Vale Private Office',
    },
    summary,
    allocation,
    concentration,
    holdings: lazyHoldings(n, seed, total, opts),
    benchmarks: opts.starterTier
      ? { included: false, note: "omitted: the account's tier has no portfolio scope, so no performance or benchmarks" }
      : {
          included: true,
          data: {
            periods: [
              { period: '1_month', label: '1 month', return_percent: 1.4, vs_benchmark_percent: 0.6 },
              { period: '3_months', label: '3 months', return_percent: 3.9, vs_benchmark_percent: 1.1 },
              { period: '6_months', label: '6 months', return_percent: 6.2, vs_benchmark_percent: -0.4 },
              { period: '1_year', label: '1 year', return_percent: 11.8, vs_benchmark_percent: 2.3 },
              { period: 'ytd', label: 'Year to date', return_percent: 9.7, vs_benchmark_percent: 1.9 },
            ],
            benchmarks: [
              { id: 'luxury_index', name: 'Luxury index', one_year_return_percent: 9.5 },
              { id: 'gold', name: 'Gold', one_year_return_percent: 14.2 },
              { id: 'equity_index', name: 'Equities', one_year_return_percent: -3.1 },
            ],
            portfolio_one_year_return_percent: 11.8,
          },
        },
    projections: opts.starterTier
      ? { included: false, note: "omitted: the account's tier has no projections scope" }
      : {
          included: true,
          data: topRefs.map((t, k) => ({
            row: t.row, asset_id: t.asset_id, description: t.description, current_value: t.value,
            expected_roi_12m_percent: 4 + k, expected_roi_24m_percent: 9 + k, expected_roi_36m_percent: 15 + k,
            central_value_36m: ROUND(t.value * 1.15), conservative_value_36m: ROUND(t.value * 0.95), optimistic_value_36m: ROUND(t.value * 1.4),
            confidence: 0.72, market_validated: true,
          })),
        },
    exit_analysis: opts.starterTier
      ? { included: false, note: "omitted: the account's tier has no exit scope" }
      : {
          included: true,
          data: topRefs.slice(0, 3).map((t) => ({
            row: t.row, asset_id: t.asset_id, description: t.description, current_value: t.value,
            signal: 'favourable', optimal_window: 'approaching', recommendation: 'monitor_closely',
            primary_channel: 'Major auction house', primary_commission_percent: 12, primary_estimated_net: ROUND(t.value * 0.88), primary_timeline_days: '30-60',
            secondary_channel: 'Specialist dealer', secondary_estimated_net: ROUND(t.value * 0.85),
            hold_12m_roi_percent: 6.5, confidence: 0.7, market_validated: true,
          })),
        },
    errors,
    method_notes: [
      'Each holding was valued with the service valuation endpoint as of the report date; the mid estimate is the headline value and low/high bound the range.',
      'Return since purchase compares the mid value with the purchase price; the annualised return weights each holding by its cost and holding period.',
    ],
    disclaimer: composeDisclaimer(summary, sandbox),
  };
}

export function makeDashboardData(): DashboardData {
  const r = mulberry32(7);
  return {
    report_id: 'dash_2026-10-31',
    as_of: AS_OF,
    generated_at: '2026-11-01T06:00:00Z',
    sandbox: true,
    segments: SEGMENTS.map((s) => ({
      segment: s.id,
      segment_name: s.name,
      momentum: ['positive', 'neutral', 'negative'][Math.floor(r() * 3)]!,
      volume: 'above_average',
      sentiment: r() > 0.5 ? 'bullish' : 'neutral',
      signal_strength: Math.round(r() * 100) / 100,
      price_trend: 'upward',
      change_7d_percent: Math.round((r() * 6 - 2) * 10) / 10,
      change_30d_percent: Math.round((r() * 12 - 4) * 10) / 10,
      change_90d_percent: Math.round((r() * 20 - 6) * 10) / 10,
      transaction_count_30d: Math.floor(r() * 5000),
      sentiment_score: Math.round(r() * 100) / 100,
    })),
    top_movers: [
      { segment: 'watches', brand: 'Rolex', model: 'Daytona 116500LN', change_30d_percent: 8.4 },
      { segment: 'art', brand: 'Yayoi Kusama', model: '=Pumpkin', change_30d_percent: -5.2 },
      { segment: 'bags', brand: 'Hermès', model: 'Birkin 30', change_30d_percent: 4.1 },
    ],
    alerts: [
      {
        id: 'alert_01', type: 'breakout', severity: 'opportunity', segment: 'watches', title: 'Steel sports watches break out',
        message: 'Prices for steel sports models rose 6 % in a week.', created_at: '2026-10-30T09:00:00Z', expires_at: '2026-11-06T09:00:00Z',
      },
    ],
    market_validated: true,
    notes: ['Segment detail for real_estate omitted: rate limit reached.'],
    disclaimer: 'Market signals are model estimates, not investment advice. SANDBOX DATA.',
  };
}
