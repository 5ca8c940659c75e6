import '../shared/custom-functions-global';
import type { Currency } from '../../../src/wire';
import { describeRowProblem, holdingMultiplier, readHoldingsGrid, requestForRow } from '../shared/holdings';
import { InputError } from '../shared/input-error';
import { money } from '../shared/cell-values';
import { toExcelError } from '../shared/excel-errors';
import { getRuntime } from '../shared/runtime';
import type { Call } from './settle';
import { addinTranslator } from '../shared/display-language';

export const HOLDINGS_RESULT_HEADERS = ['asset_id', 'low', 'mid', 'high', 'currency', 'confidence', 'score'] as const;

/**
 * SVC.VALUEHOLDINGS: one output row per input row, each the value of the whole holding
 * (all units, as the report job values it) (blank rows stay blank, so the result
 * lines up beside the table); a row that cannot be read or valued shows its own error
 * and the others still get their values. All rows go through the shared queue.
 */
export async function valueHoldingsTable(grid: unknown[][], currency: Currency, call: Call): Promise<unknown[][]> {
  if (!Array.isArray(grid) || grid.length < 2) {
    throw new InputError('holdings', addinTranslator().t('addin.cell_holdings_table'));
  }
  const { rows, recognised, columnProblem } = readHoldingsGrid(grid);
  if (!recognised) {
    throw new InputError('holdings', addinTranslator().t('addin.cell_holdings_header'));
  }
  if (columnProblem) throw new InputError('holdings', `holdings: ${columnProblem}`);
  const width = HOLDINGS_RESULT_HEADERS.length;
  const out: unknown[][] = Array.from({ length: grid.length - 1 }, () => Array<unknown>(width).fill(''));
  await Promise.all(
    rows.map(async (r) => {
      const index = r.row - 2; // header is sheet-relative row 1
      if ('problems' in r) {
        out[index] = errorRow('', toExcelError(new InputError('holdings', describeRowProblem(r.row, r.problems))), width);
        return;
      }
      try {
        const request = requestForRow(r);
        const item = await getRuntime().valuation(request, currency, call);
        const v = item.estimated_value;
        const q = holdingMultiplier(request, r.holding);
        out[index] = [item.asset_id, money((v.low ?? v.mid) * q, v.currency), money(v.mid * q, v.currency), money((v.high ?? v.mid) * q, v.currency), v.currency, item.confidence, item.service_score];
      } catch (err) {
        out[index] = errorRow(r.holding.assetId, toExcelError(err), width);
      }
    }),
  );
  return [[...HOLDINGS_RESULT_HEADERS], ...out];
}

function errorRow(assetId: string, error: CustomFunctions.Error, width: number): unknown[] {
  return [assetId, error, ...Array<unknown>(width - 2).fill('')];
}
