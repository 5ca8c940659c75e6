/** A projection's or exit analysis's row as the PDF and the web page write it: its holding, its figures. */
import type { Translator } from '../../src/i18n';
import type { AnalysedAsset, ExitRow, ProjectionRow } from '../report-data';
import { valueLabel } from './labels';

/**
 * The holding a row is about, with the number of identical holdings it stands for when more than
 * one: the value beside it is theirs together, and the reader should not take it for one piece.
 */
export function analysedHolding(r: AnalysedAsset, internal: boolean, tr: Translator): { text: string; sub: string } {
  const count = r.holding_count > 1 ? [tr.t('pdf.identical_holdings', { count: r.holding_count })] : [];
  return { text: r.description, sub: [...(internal ? [r.portfolio] : []), ...count, r.asset_id].join(' · ') };
}

/** A figure as text, with its raw number (the page sorts by it) and the sign of a return. */
export interface FigureCell {
  text: string;
  sub?: string;
  value?: number | null;
  sign?: number | null;
}

/** A projection's row: the holding, its value now, the expected returns at 12, 24 and 36 months, the 36-month range, the confidence. */
export function projectionCells(r: ProjectionRow, internal: boolean, cur: string, tr: Translator): FigureCell[] {
  const signed = (v: number | null): FigureCell => ({ text: tr.percent(v, { signed: true }), value: v, sign: v });
  return [
    analysedHolding(r, internal, tr),
    { text: tr.money(r.current_value, cur, 0), value: r.current_value },
    signed(r.expected_roi_12m_percent),
    signed(r.expected_roi_24m_percent),
    signed(r.expected_roi_36m_percent),
    { text: tr.money(r.central_value_36m, cur, 0), value: r.central_value_36m, sub: `${tr.compactMoney(r.conservative_value_36m, cur)}–${tr.compactMoney(r.optimistic_value_36m, cur)}` },
    { text: tr.number(r.confidence, 2), value: r.confidence },
  ];
}

/**
 * An exit analysis's timing and channel cells, in that order: the service's codes in words by labels.ts (the
 * columns' area), the sentence around them ours; the next-best channel by its name beside its
 * proceeds (a bare "alt." amount left the reader to guess whose it was).
 */
export function exitCells(e: ExitRow, cur: string, tr: Translator): [timing: FigureCell, channel: FigureCell] {
  return [
    { text: valueLabel(e.recommendation, tr), sub: tr.t('pdf.timing_sub', { signal: valueLabel(e.signal, tr), window: valueLabel(e.optimal_window, tr).toLocaleLowerCase(tr.lang) }) },
    { text: e.primary_channel, sub: tr.t('pdf.channel_sub', { percent: tr.percent(e.primary_commission_percent), channel: e.secondary_channel, amount: tr.money(e.secondary_estimated_net, cur, 0) }) },
  ];
}
