import { PermissionDeniedError, ServiceError, type ServiceClient } from '../src/client';
import { SEGMENTS, parseSignedPercent, type SegmentSignals } from '../src/wire';
import { reportId } from './build/report-id';
import { segmentName } from './client-words';
import type { DashboardData, DashboardMover, DashboardSegment } from './report-data';
import { UsageError } from './run/exit-codes';
import { DEFAULT_LANGUAGE, translator, type Language } from '../src/i18n';

const TOP_MOVERS = 10;

/**
 * The market dashboard: GET /signals for every segment's summary and the overview flag,
 * GET /signals/{segment} for price changes and top movers, GET /signals/alerts for the
 * active alerts. A segment whose detail fails still shows its summary, with a note. Its words
 * (segment names, notes, disclaimer) in `language` (--language, default en); codes stay codes.
 */
export async function buildDashboard(
  client: ServiceClient,
  ctx: { asOf: string; generatedAt: string; sandbox: boolean; signal: AbortSignal; language?: Language },
): Promise<DashboardData> {
  const ro = { signal: ctx.signal };
  const tr = translator(ctx.language ?? DEFAULT_LANGUAGE);
  let overview;
  try {
    overview = (await client.signals.overview(ro)).signals;
  } catch (e) {
    if (e instanceof PermissionDeniedError) throw new UsageError("the account's tier does not include market signals (403 Forbidden): the dashboard needs the signals scope");
    throw e;
  }
  const notes: string[] = [];
  const details = new Map<string, SegmentSignals>();
  for (const s of SEGMENTS) {
    try {
      details.set(s.id, await client.signals.segment(s.id, ro));
    } catch (e) {
      if (!(e instanceof ServiceError) || e.name === 'AbortedError') throw e;
      // The service's own words for why (its message) are kept as it gave them.
      notes.push(tr.t('dashboard.note_segment_omitted', { segment: segmentName(tr, s.id), reason: e.message.replace(/\.$/, '') }));
    }
  }
  let alerts: DashboardData['alerts'] = [];
  try {
    alerts = (await client.signals.alerts(ro)).alerts.map((a) => ({ ...a }));
  } catch (e) {
    if (!(e instanceof ServiceError) || e.name === 'AbortedError') throw e;
    notes.push(tr.t('dashboard.note_alerts_omitted', { reason: e.message.replace(/\.$/, '') }));
  }

  const segmentIds = [...SEGMENTS.map((s) => s.id as string), ...Object.keys(overview.segments).filter((id) => !SEGMENTS.some((s) => s.id === id))];
  const segments: DashboardSegment[] = segmentIds
    .filter((id) => overview.segments[id] !== undefined)
    .map((id) => {
      const sum = overview.segments[id]!;
      const d = details.get(id)?.signals;
      const pct = (text: string | undefined) => (text === undefined ? null : (parseSignedPercent(text) ?? null));
      return {
        segment: id,
        segment_name: segmentName(tr, id),
        momentum: sum.momentum,
        volume: sum.volume,
        sentiment: sum.sentiment,
        signal_strength: sum.signal_strength,
        price_trend: d?.price.trend ?? null,
        change_7d_percent: pct(d?.price.change_7d),
        change_30d_percent: pct(d?.price.change_30d),
        change_90d_percent: pct(d?.price.change_90d),
        transaction_count_30d: d?.volume.transaction_count_30d ?? null,
        sentiment_score: d?.sentiment.score ?? null,
      };
    });
  const movers: DashboardMover[] = [...details.entries()].flatMap(([segment, d]) =>
    d.signals.top_movers.map((m) => ({ segment, brand: m.brand, model: m.model, change_30d_percent: parseSignedPercent(m.change_30d) ?? 0 })),
  );
  movers.sort((a, b) => Math.abs(b.change_30d_percent) - Math.abs(a.change_30d_percent) || a.segment.localeCompare(b.segment) || a.brand.localeCompare(b.brand));

  return {
    report_id: reportId('market-dashboard', ctx.asOf, segments),
    as_of: ctx.asOf,
    generated_at: ctx.generatedAt,
    sandbox: ctx.sandbox,
    segments,
    top_movers: movers.slice(0, TOP_MOVERS),
    alerts,
    market_validated: overview.market_validated,
    notes,
    disclaimer: [tr.t('dashboard.disclaimer'), ...(ctx.sandbox ? [tr.t('dashboard.disclaimer_sandbox')] : [])].join(tr.lang === 'ja' || tr.lang === 'zh-Hans' ? '' : ' '),
    language: tr.lang,
  };
}
