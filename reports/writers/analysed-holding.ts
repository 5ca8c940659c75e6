/** How a projection's or exit analysis's row names its holding, in the PDF and on the page. */
import type { Translator } from '../../src/i18n';
import type { AnalysedAsset } from '../report-data';

/**
 * The holding a row is about, with the number of identical holdings it stands for when more than
 * one: the value beside it is theirs together, and the reader should not take it for one piece.
 */
export function analysedHolding(r: AnalysedAsset, internal: boolean, tr: Translator): { text: string; sub: string } {
  const count = r.holding_count > 1 ? [tr.t('pdf.identical_holdings', { count: r.holding_count })] : [];
  return { text: r.description, sub: [...(internal ? [r.portfolio] : []), ...count, r.asset_id].join(' · ') };
}
