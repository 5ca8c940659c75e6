import { MAX_BATCH, type Currency } from '../../../src/wire';
import type { AccountBudget } from '../../contract/refresh-budget';
import { readCurrency, readOptionalAmount, readOptionalText, readOptionalYear, readSegment, readText, readUrgency } from '../shared/arguments';
import { holdingForAssetId, readHoldingsGrid, requestForAssetId, requestForRow } from '../shared/holdings';
import { requestKey } from '../shared/request-key';
import { argumentValue, svcCalls, type CellLookup } from './svc-formulas';
import { formulaCells, lookupIn, type SheetModel } from './workbook-model';

/**
 * Budget before refresh, as pure logic: the requests a full recalculation of the workbook will
 * make once every cache is cleared (the pane's Refresh), counted the way the runtime groups them
 * — valuations coalesced per currency into batches of 50, identical requests asked once, other
 * operations one call per distinct request — and what that costs at the account's pace.
 */

export interface RefreshPlan {
  /** Cells with an SVC formula. */
  cells: number;
  /** Distinct requests of every kind (the valuations plus one per other call). */
  distinct: number;
  /** Distinct valuations per currency: they leave in batches of 50. */
  valuations: Partial<Record<Currency, number>>;
  batchCalls: number;
  /** Cards, breakdowns, projections, exit analyses, signals, segment detail, alerts: one call each. */
  singleCalls: number;
  calls: number;
  /** Calls whose arguments are expressions the pane cannot read before calculating: each counted as its own request. */
  unreadable: number;
}

type Need = { batch: Currency; key: string } | { single: string };

/** The valuation an asset cell asks for, keyed as the runtime keys it. */
function valuationNeed(asset: unknown, currency: unknown): Need {
  return { batch: readCurrency('currency', currency), key: requestKey(requestForAssetId(holdingForAssetId('asset', readText('asset', asset)))) };
}

/** The requests one call makes with these scalar arguments (arguments as Excel passes them: null when omitted). Throws for arguments the function refuses (no call). */
function needsOf(name: string, a: readonly unknown[]): Need[] {
  const asset = () => holdingForAssetId('asset', readText('asset', a[0])).assetId;
  // The implicit valuation behind an omitted current_value (its currency as the function uses it).
  const start = (value: unknown, currency: unknown): Need[] => (readOptionalAmount('current_value', value) === undefined ? [valuationNeed(a[0], currency)] : []);
  switch (name) {
    case 'MIDVALUE':
    case 'VALUATION':
      return [valuationNeed(a[0], a[1])];
    case 'SCORE':
      return [valuationNeed(a[0], null)];
    case 'COVER':
      return [valuationNeed(a[0], a[2])];
    case 'ASSET':
      return [{ single: `card ${asset()} ${readCurrency('currency', a[1])}` }];
    case 'FACTORS':
      return [{ single: `breakdown ${asset()}` }];
    case 'PROJECTION':
      return [...start(a[4], a[5]), { single: `projection ${asset()} ${String(a[4] ?? 'mid')} ${readCurrency('currency', a[5])}` }];
    case 'EXPECTEDROI':
      return [...start(a[2], null), { single: `projection ${asset()} ${String(a[2] ?? 'mid')} USD` }];
    case 'EXITNET':
      return [...start(a[3], null), { single: `exit ${asset()} ${String(a[3] ?? 'mid')} ${readUrgency('urgency', a[2])}` }];
    case 'SIGNAL':
      return [{ single: `signals ${readSegment('segment', a[0])}` }];
    case 'SEGMENT':
      return [{ single: `segment ${readSegment('segment', a[0])}` }];
    case 'ALERTS':
      return [{ single: 'alerts' }];
    case 'ASSETID': {
      const request = { segment: readSegment('segment', a[0]), brand: readText('brand', a[1]), model: readText('model', a[2]), reference: readOptionalText('reference', a[3]), year: readOptionalYear('year', a[4]), size: readOptionalText('size', a[5]) };
      return [{ batch: 'USD', key: requestKey(request) }];
    }
    default:
      return []; // REFRESH and names we do not know spend nothing
  }
}

/** Holdings tables: one valuation per readable row. */
function holdingsNeeds(grid: unknown[][], currency: unknown): Need[] {
  const ccy = readCurrency('currency', currency);
  return readHoldingsGrid(grid).rows.flatMap((r) => ('holding' in r ? [{ batch: ccy, key: requestKey(requestForRow(r)) }] : []));
}

/**
 * Expands a call whose scalar arguments name ranges into one call per cell (Excel evaluates
 * `=SVC.MIDVALUE(A2:A500)` cell by cell); undefined when an argument cannot be read.
 */
function expand(args: readonly string[], sheet: string, lookup: CellLookup, scalarFrom = 0): unknown[][] | undefined {
  const read = args.map((arg) => argumentValue(arg, sheet, lookup));
  let count = 1;
  const flat: unknown[][] = [];
  for (const [i, v] of read.entries()) {
    if (v.kind === 'unknown') return undefined;
    if (v.kind === 'value') {
      flat.push([v.value]);
      continue;
    }
    if (i < scalarFrom) {
      flat.push([v.values]);
      continue;
    }
    const cells = v.values.flat().map((x) => (x === '' || x === undefined ? null : x));
    count = Math.max(count, cells.length);
    flat.push(cells);
  }
  return Array.from({ length: count }, (_, k) => flat.map((vals) => (vals.length === 1 ? vals[0] : vals[k])));
}

export function planRefresh(sheets: readonly SheetModel[]): RefreshPlan {
  const lookup = lookupIn(sheets);
  const batch = new Map<Currency, Set<string>>();
  const single = new Set<string>();
  const memo = new Map<string, Need[]>();
  let cells = 0;
  let unreadable = 0;
  for (const f of formulaCells(sheets)) {
    const calls = svcCalls(f.formula);
    if (calls.length === 0) continue;
    cells++;
    calls.forEach((call, i) => {
      const holdings = call.name === 'VALUEHOLDINGS';
      const argSets = expand(call.args, f.sheet.name, lookup, holdings ? 1 : 0);
      if (!argSets) {
        unreadable++;
        if (call.name !== 'REFRESH') single.add(`? ${f.sheet.name}!${f.row},${f.column}#${i}`);
        return;
      }
      for (const args of argSets) {
        // The same call with the same arguments in many cells is read once (reading an id parses it as a holding).
        const memoKey = `${call.name}\u0000${JSON.stringify(args)}`;
        let needs = memo.get(memoKey);
        if (!needs) {
          try {
            needs = holdings ? holdingsNeeds(args[0] as unknown[][], args[1]) : needsOf(call.name, args);
          } catch {
            needs = []; // arguments the function refuses (#VALUE!) make no call
          }
          memo.set(memoKey, needs);
        }
        for (const n of needs) {
          if ('single' in n) single.add(n.single);
          else {
            const set = batch.get(n.batch) ?? new Set<string>();
            set.add(n.key);
            batch.set(n.batch, set);
          }
        }
      }
    });
  }
  const valuations: Partial<Record<Currency, number>> = {};
  let batchCalls = 0;
  let distinctValuations = 0;
  for (const [ccy, set] of batch) {
    valuations[ccy] = set.size;
    distinctValuations += set.size;
    batchCalls += Math.ceil(set.size / MAX_BATCH);
  }
  return { cells, distinct: distinctValuations + single.size, valuations, batchCalls, singleCalls: single.size, calls: batchCalls + single.size, unreadable };
}

export interface RefreshEstimate {
  calls: number;
  /** Time from the first call to the last at the account's pace, plus one round trip. */
  seconds: number | null;
  /** Share of what is left of today's budget (the user's own share when the host caps users). */
  dayShare: number | null;
  dayRemaining: number | null;
  /** The day's budget runs out before the refresh ends. */
  exceedsDay: boolean;
}

export function estimateRefresh(plan: RefreshPlan, account: AccountBudget): RefreshEstimate {
  const pace = account.pace_ms;
  const seconds = pace === null ? null : (Math.max(0, plan.calls - 1) * pace + (account.round_trip_ms ?? 0)) / 1000;
  const remaining = [account.day_remaining, account.user_day_remaining].filter((v): v is number => v !== null);
  const dayRemaining = remaining.length ? Math.min(...remaining) : null;
  return {
    calls: plan.calls,
    seconds,
    dayShare: dayRemaining === null ? null : dayRemaining === 0 ? (plan.calls === 0 ? 0 : Infinity) : plan.calls / dayRemaining,
    dayRemaining,
    exceedsDay: dayRemaining !== null && plan.calls > dayRemaining,
  };
}

/** Default: ask before a refresh that takes more than 10% of what is left of today's budget. */
export const DEFAULT_CONFIRM_PERCENT = 10;

/** Whether the pane asks first: above the threshold or past the day's budget (an unknown budget asks nothing: the pane says it is unknown). */
export function needsConfirmation(e: RefreshEstimate, thresholdPercent: number): boolean {
  if (e.exceedsDay) return true;
  if (e.dayShare === null) return false;
  return e.dayShare * 100 > thresholdPercent;
}
