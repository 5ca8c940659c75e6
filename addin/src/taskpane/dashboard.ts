/// <reference types="office-js" />
import { SEGMENTS, parseSignedPercent, type Alert, type SegmentSignals } from '../../../src/wire';
import { PERCENT_FORMAT } from '../shared/cell-values';
import type { AddinRuntime } from '../shared/runtime';
import { ALERT_HEADERS } from '../functions/alerts-table';
import type { Translator } from '../../../src/i18n';
import { addinTranslator } from '../shared/display-language';

/** The dashboard's column words (the alerts block keeps SVC.ALERTS' own headers, which formulas name). */
type DashboardWord = 'col_segment' | 'col_name' | 'col_price_trend' | 'col_change_7d' | 'col_change_30d' | 'col_change_90d' | 'col_momentum' | 'col_strength' | 'col_sentiment' | 'col_volume' | 'col_brand' | 'col_model';

type Cell = string | number;

/** One block of the dashboard sheet: a title, a header row and its rows, with a number format per column. */
export interface DashboardBlock {
  title: string;
  headers: string[];
  rows: Cell[][];
  formats: string[];
}

const fraction = (signed: string): Cell => {
  const n = parseSignedPercent(signed);
  return n === undefined ? signed : n / 100;
};

/** The three blocks from the service's answers: segment signals, top movers, active alerts. */
export function dashboardBlocks(signals: SegmentSignals[], alerts: Alert[], tr: Translator = addinTranslator()): DashboardBlock[] {
  const h = (...keys: DashboardWord[]) => keys.map((k) => tr.t(`addin.${k}`));
  const nameOf = (id: string) => SEGMENTS.find((s) => s.id === id)?.name ?? id;
  const movers = signals
    .flatMap((s) => s.signals.top_movers.map((m) => ({ segment: s.segment, ...m, change: parseSignedPercent(m.change_30d) ?? 0 })))
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change))
    .slice(0, 15);
  return [
    {
      title: tr.t('addin.dashboard_signals'),
      headers: h('col_segment', 'col_name', 'col_price_trend', 'col_change_7d', 'col_change_30d', 'col_change_90d', 'col_momentum', 'col_strength', 'col_sentiment', 'col_volume'),
      rows: signals.map((s) => {
        const x = s.signals;
        return [s.segment, nameOf(s.segment), x.price.trend, fraction(x.price.change_7d), fraction(x.price.change_30d), fraction(x.price.change_90d), x.momentum.direction, x.momentum.strength, x.sentiment.overall, x.volume.level];
      }),
      formats: ['@', '@', '@', PERCENT_FORMAT, PERCENT_FORMAT, PERCENT_FORMAT, '@', '0.00', '@', '@'],
    },
    {
      title: tr.t('addin.dashboard_movers'),
      headers: h('col_segment', 'col_brand', 'col_model', 'col_change_30d'),
      rows: movers.map((m) => [m.segment, m.brand, m.model, m.change / 100]),
      formats: ['@', '@', '@', PERCENT_FORMAT],
    },
    {
      title: tr.t('addin.dashboard_alerts'),
      headers: [...ALERT_HEADERS],
      rows: alerts.length > 0 ? alerts.map((a) => [a.severity, a.segment, a.title, a.message, a.expires_at]) : [['', '', tr.t('addin.dashboard_no_alerts'), '', '']],
      formats: ['@', '@', '@', '@', '@'],
    },
  ];
}

/** A sheet name not yet taken: "Market dashboard", then "Market dashboard (2)", ... (in the pane's language). */
async function freeSheetName(ctx: Excel.RequestContext, base: string): Promise<string> {
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? base : `${base} (${n})`;
    const existing = ctx.workbook.worksheets.getItemOrNullObject(name);
    existing.load('isNullObject');
    await ctx.sync();
    if (existing.isNullObject) return name;
  }
  throw new Error(addinTranslator().t('addin.dashboard_sheet_taken', { name: base }));
}

/** "Insert market dashboard": a new sheet with the three blocks, one under the other. */
export async function insertMarketDashboard(runtime: AddinRuntime, signal: AbortSignal): Promise<{ sheet: string; alerts: number }> {
  const call = { signal, preview: false };
  const [signals, alerts] = await Promise.all([Promise.all(SEGMENTS.map((s) => runtime.segmentSignals(s.id, call))), runtime.backend.alerts(signal)]);
  const blocks = dashboardBlocks(signals, alerts);
  const sheetName = await Excel.run(async (ctx) => {
    const name = await freeSheetName(ctx, addinTranslator().t('addin.dashboard_sheet'));
    const sheet = ctx.workbook.worksheets.add(name);
    let row = 0;
    for (const block of blocks) {
      sheet.getRangeByIndexes(row, 0, 1, 1).values = [[block.title]];
      sheet.getRangeByIndexes(row, 0, 1, 1).format.font.bold = true;
      const table = sheet.getRangeByIndexes(row + 1, 0, block.rows.length + 1, block.headers.length);
      table.numberFormat = [block.headers.map(() => '@'), ...block.rows.map(() => block.formats)];
      table.values = [block.headers, ...block.rows];
      sheet.getRangeByIndexes(row + 1, 0, 1, block.headers.length).format.font.bold = true;
      row += block.rows.length + 3;
    }
    sheet.getRangeByIndexes(0, 0, row, 10).format.autofitColumns();
    sheet.activate();
    await ctx.sync();
    return name;
  });
  return { sheet: sheetName, alerts: alerts.length };
}
