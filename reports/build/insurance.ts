/**
 * The report's insurance review (issue 37), from the report's own rows: each valued holding's mid
 * and high as the report states them (its currency, its FX), its cover converted at the as-of
 * date's rate as other amounts are. The computation itself is src/insurance/review.ts.
 */
import { MissingRateError } from '../../src/fx';
import type { PortfolioInput } from '../../src/holdings/types';
import { DEFAULT_INSURANCE_OPTIONS, hasCover, insuranceReview, type InsuranceReview, type ReviewInput } from '../../src/insurance';
import type { Translator } from '../../src/i18n';
import type { Holding as ReportHolding, ReportError } from '../report-data';
import type { BuildContext } from './context';
import { inputError } from './errors';
import { fxRate } from './fx';

export interface InsuranceBuild {
  /** Absent when no holding of the portfolio says anything of its cover: no review, nothing said. */
  review?: InsuranceReview;
  /** Covers that could not be converted to the report's currency (no rate): by row and field. */
  errors: ReportError[];
}

/**
 * `rows`: the report's row of each valued holding, by input index. A holding not valued has no
 * replacement value, and one whose insured value was refused (coverRefused) an unknown cover:
 * neither is reviewed (their rows' errors already say why), rather than be called covered or not insured.
 */
export function buildInsurance(
  input: PortfolioInput,
  rows: ReadonlyMap<number, ReportHolding>,
  ctx: BuildContext,
  tr: Translator,
  underInsuredSince?: ReadonlyMap<string, string>,
): InsuranceBuild {
  const errors: ReportError[] = [];
  if (!input.holdings.some((h) => hasCover(h.cover) || h.coverRefused)) return { errors };
  const inputs: ReviewInput[] = [];
  input.holdings.forEach((h, i) => {
    const row = rows.get(i);
    if (!row || h.coverRefused) return;
    const cover = h.cover ?? {};
    const item: ReviewInput = { row: row.row, asset_id: row.asset_id, description: row.description, mid: row.current_value, high: row.value_high, insured_value: null };
    if (cover.insured_value !== undefined) {
      const currency = cover.insured_currency ?? h.currency ?? ctx.currency;
      try {
        item.insured_value = cover.insured_value * fxRate(ctx, currency, ctx.currency, ctx.asOf);
      } catch (e) {
        if (!(e instanceof MissingRateError)) throw e;
        const reason = `${e.message}; the item is left out of the insurance review`;
        errors.push(inputError({ portfolio: input.name, file: h.source.file, sheet: h.source.sheet, row: h.source.row, field: 'insured_currency', reason }, false, tr));
        return;
      }
      if (currency !== ctx.currency) item.insured_value_original = { amount: cover.insured_value, currency };
    }
    for (const k of ['insurer', 'policy', 'renewal_date', 'serial'] as const) if (cover[k] !== undefined) item[k] = cover[k];
    inputs.push(item);
  });
  const options = { ...DEFAULT_INSURANCE_OPTIONS, ...ctx.insurance, asOf: ctx.asOf };
  const review = insuranceReview(inputs, options);
  // With a history database: under-insured since the first month-end of the unbroken run that reaches this one.
  if (underInsuredSince) for (const item of review.items) if (item.status === 'under-insured') item.under_insured_since = underInsuredSince.get(item.asset_id) ?? ctx.asOf;
  return { review, errors };
}
