import '../shared/custom-functions-global';
import { readBooleanFlag, readOptionalDate, readText } from '../shared/arguments';
import { excelDate, money } from '../shared/cell-values';
import { InputError } from '../shared/input-error';
import { getRuntime } from '../shared/runtime';
import type { Call } from './settle';
import { addinTranslator } from '../shared/display-language';

export const HISTORY_HEADERS = ['as_of', 'value', 'net_flows'] as const;

/**
 * SVC.HISTORY's rows: one per recorded month-end, the date as an Excel date, value and net flows
 * in the month-end's currency. Bad dates are #VALUE! before anything is asked of the host.
 */
export async function historyTable(keyArg: unknown, fromArg: unknown, toArg: unknown, showHeaders: unknown, call: Call): Promise<unknown[][]> {
  const key = readText('portfolio_or_asset_id', keyArg);
  const from = readOptionalDate('from', fromArg);
  const to = readOptionalDate('to', toArg);
  if (from !== undefined && to !== undefined && from > to) throw new InputError('from', addinTranslator().t('addin.cell_from_after_to', { from: String(from), to: String(to) }));
  const headers = readBooleanFlag(showHeaders);
  const answer = await getRuntime().history({ key, from, to }, call);
  const rows = answer.month_ends.map((m) => [excelDate(m.as_of), money(m.value, m.currency), m.net_flows === null ? '' : money(m.net_flows, m.currency)]);
  return headers ? [[...HISTORY_HEADERS], ...rows] : rows;
}
