/**
 * The SVC.* custom functions. The metadata (functions.json) is generated from these JSDoc
 * blocks by custom-functions-metadata at build time, and the build associates each id with
 * its function. Conventions, after market-data add-ins such as Bloomberg's BDP: the
 * identifier comes first, then the field; a scalar argument given a range is lifted by
 * Excel into one call per cell, each going through the shared coalescing queue.
 *
 * Excel passes an omitted optional argument as null (the TypeScript types below are what
 * the metadata generator needs; every reader treats its value as unknown). Return types are
 * `any` where a cell gets an Excel formatted number or a spilled mix of numbers and text:
 * custom-functions-metadata can describe those only as any. Nothing of the wire is untyped.
 * Every cancelable function asks Excel for its cell's address (@requiresAddress): a cell showing
 * a last known value while the service is unreachable is counted once in the pane, by address.
 */
import '../shared/custom-functions-global';
import { FACTOR_NAMES, PERFORMANCE_MEASURES, PERFORMANCE_PERIODS } from '../../../src/wire';
import { toExcelError } from '../shared/excel-errors';
import {
  readBooleanFlag,
  readChoice,
  readCurrency,
  readHorizon,
  readOptionalAmount,
  readOptionalText,
  readOptionalYear,
  readScenario,
  readSegment,
  readText,
  readUrgency,
} from '../shared/arguments';
import { money, percent } from '../shared/cell-values';
import { holdingForAssetId, requestForAssetId } from '../shared/holdings';
import { InputError } from '../shared/input-error';
import { getRuntime, PreviewNotCachedError } from '../shared/runtime';
import { settle, type Call } from './settle';
import { valueHoldingsTable } from './holdings-table';
import { historyTable } from './history-table';
import { SEGMENT_FIELDS, SIGNAL_FIELDS, segmentField, signalField } from './fields';
import { alertRows } from './alerts-table';
import { assetCard, hostShowsCards, numberStyle, valuationRow } from './asset-card';
import { coverCell, coverOf } from './cover-card';
import { addinTranslator } from '../shared/display-language';

function valuationOf(asset: unknown, currency: unknown, call: Call) {
  const holding = holdingForAssetId('asset', readText('asset', asset));
  const ccy = readCurrency('currency', currency);
  return getRuntime().valuation(requestForAssetId(holding), ccy, call);
}

/** The amount to project or sell: the one given, else the asset's current mid valuation. */
async function currentValueOf(asset: string, given: unknown, currency: unknown, call: Call): Promise<number> {
  const amount = readOptionalAmount('current_value', given);
  if (amount !== undefined) return amount;
  const item = await valuationOf(asset, currency, call);
  return item.estimated_value.mid;
}

function assetIdOf(asset: unknown): string {
  return holdingForAssetId('asset', readText('asset', asset)).assetId;
}

/**
 * The mid valuation of an asset, as a currency-formatted number.
 * @customfunction MIDVALUE
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021 (see SVC.ASSETID).
 * @param [currency] USD (default), EUR or GBP.
 * @param invocation Invocation context.
 * @returns The mid estimate.
 * @cancelable
 * @requiresAddress
 */
export function midValue(asset: string, currency: string, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return settle(invocation, async (call) => {
    const item = await valuationOf(asset, currency, call);
    return money(item.estimated_value.mid, item.estimated_value.currency);
  });
}

/**
 * The full valuation spilled as one row: low, mid, high, currency, confidence, score, asset id.
 * @customfunction VALUATION
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param [currency] USD (default), EUR or GBP.
 * @param [show_headers] TRUE to add a header row.
 * @param invocation Invocation context.
 * @returns Low, mid, high, currency, confidence, score, asset id.
 * @cancelable
 * @requiresAddress
 */
export function valuation(asset: string, currency: string, show_headers: boolean, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return settle(invocation, async (call) => {
    const headers = readBooleanFlag(show_headers);
    const item = await valuationOf(asset, currency, call);
    const v = item.estimated_value;
    const row = [money(v.low ?? v.mid, v.currency), money(v.mid, v.currency), money(v.high ?? v.mid, v.currency), v.currency, item.confidence, item.service_score, item.asset_id];
    return headers ? [['low', 'mid', 'high', 'currency', 'confidence', 'score', 'asset_id'], row] : [row];
  });
}

/**
 * The asset's investment score, 0 to 100.
 * @customfunction SCORE
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param invocation Invocation context.
 * @returns The service score.
 * @cancelable
 * @requiresAddress
 */
export function score(asset: string, invocation: CustomFunctions.CancelableInvocation): Promise<number> {
  return settle(invocation, async (call) => (await valuationOf(asset, null, call)).service_score);
}

/**
 * The six-factor score breakdown spilled as a table: factor, score, weight, contribution.
 * @customfunction FACTORS
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param [show_headers] TRUE to add a header row.
 * @param invocation Invocation context.
 * @returns Six rows, one per factor.
 * @cancelable
 * @requiresAddress
 */
export function factors(asset: string, show_headers: boolean, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return settle(invocation, async (call) => {
    const headers = readBooleanFlag(show_headers);
    const breakdown = await getRuntime().breakdown(assetIdOf(asset), call);
    const rows: any[][] = FACTOR_NAMES.map((name) => {
      const f = breakdown.factors[name];
      return [name, f.score, f.weight, f.contribution];
    });
    return headers ? [['factor', 'score', 'weight', 'contribution'], ...rows] : rows;
  });
}

/**
 * A projection's value or ROI for a horizon and scenario.
 * @customfunction PROJECTION
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param horizon Months ahead: 12, 24 or 36.
 * @param [scenario] conservative, central (default) or optimistic.
 * @param [measure] value (default) or roi.
 * @param [current_value] Starting value; the current mid valuation when omitted.
 * @param [currency] USD (default), EUR or GBP.
 * @param invocation Invocation context.
 * @returns The projected value, or the ROI as a percentage.
 * @cancelable
 * @requiresAddress
 */
export function projection(
  asset: string,
  horizon: number,
  scenario: string,
  measure: string,
  current_value: number,
  currency: string,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any> {
  return settle(invocation, async (call) => {
    const months = readHorizon('horizon', horizon);
    const scenarioName = readScenario('scenario', scenario);
    const what = readChoice('measure', measure, ['value', 'roi'] as const, 'value');
    const ccy = readCurrency('currency', currency);
    const assetId = assetIdOf(asset);
    const start = await currentValueOf(asset, current_value, currency, call);
    const p = await getRuntime().projection(assetId, start, ccy, call);
    const point = p.scenarios[scenarioName][`${months}_months`];
    if (!point) throw new InputError('horizon', addinTranslator().t('addin.cell_no_projection', { months: String(months) }));
    return what === 'roi' ? percent(point.roi_percent) : money(point.value, p.currency);
  });
}

/**
 * The probability-weighted expected ROI for a horizon, as a percentage.
 * @customfunction EXPECTEDROI
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param horizon Months ahead: 12, 24 or 36.
 * @param [current_value] Starting value; the current mid valuation when omitted.
 * @param invocation Invocation context.
 * @returns The expected ROI.
 * @cancelable
 * @requiresAddress
 */
export function expectedRoi(asset: string, horizon: number, current_value: number, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return settle(invocation, async (call) => {
    const months = readHorizon('horizon', horizon);
    const assetId = assetIdOf(asset);
    const start = await currentValueOf(asset, current_value, null, call);
    const p = await getRuntime().projection(assetId, start, 'USD', call);
    const roi = p.expected_roi[`${months}_months`];
    if (roi === undefined) throw new InputError('horizon', addinTranslator().t('addin.cell_no_expected_roi', { months: String(months) }));
    return percent(roi);
  });
}

/**
 * A market signal of a segment.
 * @customfunction SIGNAL
 * @param segment Segment id, such as watches, art, wine.
 * @param field change_7d, change_30d, change_90d, price_trend, momentum, momentum_strength, momentum_days, sentiment, sentiment_score, sentiment_trend, volume, volume_change, transactions_30d.
 * @param invocation Invocation context.
 * @returns The signal's value.
 * @cancelable
 * @requiresAddress
 */
export function signal(segment: string, field: string, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return settle(invocation, async (call) => {
    const seg = readSegment('segment', segment);
    const name = readChoice('field', field, SIGNAL_FIELDS);
    return signalField(await getRuntime().segmentSignals(seg, call), name);
  });
}

/**
 * A field of a segment's detail.
 * @customfunction SEGMENT
 * @param segment Segment id, such as watches, art, wine.
 * @param field name, asset_count, avg_score, momentum, liquidity, ytd, 1_year, 3_year, data_depth, calibration_status, brands, top_asset.
 * @param invocation Invocation context.
 * @returns The field's value.
 * @cancelable
 * @requiresAddress
 */
export function segmentDetail(segment: string, field: string, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return settle(invocation, async (call) => {
    const seg = readSegment('segment', segment);
    const name = readChoice('field', field, SEGMENT_FIELDS);
    return segmentField(await getRuntime().segmentDetail(seg, call), name);
  });
}

/**
 * The estimated net proceeds of selling through an exit channel.
 * @customfunction EXITNET
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param [channel] primary (default) or secondary.
 * @param [urgency] flexible (default), standard or urgent.
 * @param [current_value] Value to sell at; the current mid valuation when omitted.
 * @param invocation Invocation context.
 * @returns Estimated net proceeds.
 * @cancelable
 * @requiresAddress
 */
export function exitNet(asset: string, channel: string, urgency: string, current_value: number, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return settle(invocation, async (call) => {
    const which = readChoice('channel', channel, ['primary', 'secondary'] as const, 'primary');
    const how = readUrgency('urgency', urgency);
    const assetId = assetIdOf(asset);
    const start = await currentValueOf(asset, current_value, null, call);
    const exit = await getRuntime().exit(assetId, start, how, call);
    return money(exit.channels[which].estimated_net, exit.currency);
  });
}

/**
 * The asset id the service issues for a description, read from its valuation answer (through
 * the shared batching queue: many cells, few calls). Only the service knows its id for a fuzzy
 * description, a missing year or a brand alias; an id spelt locally could name another asset.
 * @customfunction ASSETID
 * @param segment Segment id, such as watches, art, wine.
 * @param brand Brand, maker, producer or artist.
 * @param model Model or title.
 * @param [reference] Reference number.
 * @param [year] Year of make or vintage.
 * @param [size] Size, for sneakers and bags.
 * @param invocation Invocation context.
 * @returns The asset id.
 * @cancelable
 * @requiresAddress
 */
export function assetIdFor(segment: string, brand: string, model: string, reference: string, year: number, size: string, invocation: CustomFunctions.CancelableInvocation): Promise<string> {
  return settle(invocation, async (call) => {
    const request = {
      segment: readSegment('segment', segment),
      brand: readText('brand', brand),
      model: readText('model', model),
      reference: readOptionalText('reference', reference),
      year: readOptionalYear('year', year),
      size: readOptionalText('size', size),
    };
    return (await getRuntime().valuation(request, 'USD', call)).asset_id;
  });
}

/**
 * Values a whole holdings table (header row first, the report job's columns) and spills one row per holding.
 * @customfunction VALUEHOLDINGS
 * @param holdings The table, header row included: asset_id or segment, brand, model, reference, year, condition, quantity...
 * @param [currency] USD (default), EUR or GBP.
 * @param invocation Invocation context.
 * @returns A header row, then asset id, low, mid, high, currency, confidence, score per holding.
 * @cancelable
 * @requiresAddress
 */
export function valueHoldings(holdings: any[][], currency: string, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return settle(invocation, (call) => valueHoldingsTable(holdings, readCurrency('currency', currency), call));
}

/**
 * Active market alerts, refreshed on a schedule.
 * @customfunction ALERTS
 * @param [segment] Only this segment's alerts.
 * @param [refresh_minutes] Minutes between refreshes (default 5, at least 1).
 * @param invocation Streaming invocation.
 * @returns severity, segment, title, message, expires at.
 * @streaming
 */
export function alerts(segment: string, refresh_minutes: number, invocation: CustomFunctions.StreamingInvocation<any[][]>): void {
  try {
    const seg = readOptionalText('segment', segment) === undefined ? undefined : readSegment('segment', segment);
    const minutes = readOptionalAmount('refresh_minutes', refresh_minutes) ?? 5;
    if (minutes < 1) throw new InputError('refresh_minutes', addinTranslator().t('addin.cell_refresh_minutes'));
    if (invocation.isInValuePreview) {
      // A preview starts no schedule and spends no call: it shows what other cells already have.
      const latest = getRuntime().latestAlerts();
      invocation.setResult(latest ? alertRows(latest, seg) : toExcelError(new PreviewNotCachedError()));
      return;
    }
    const stop = getRuntime().subscribeAlerts(minutes * 60_000, (result) => {
      if (result.ok) invocation.setResult(alertRows(result.value, seg));
      else invocation.setResult(toExcelError(result.error));
    });
    invocation.onCanceled = stop;
  } catch (err) {
    invocation.setResult(toExcelError(err));
  }
}

/**
 * The month-end values recorded in the firm's history database, spilled one row per month-end,
 * oldest first: date, value, net flows. A portfolio's name gives its value and the month's net
 * flows; an asset id gives the asset's value summed over the portfolios holding it (net flows
 * left empty: flows are a portfolio's). Read through the add-in host (SVC_DB_URL).
 * @customfunction HISTORY
 * @param portfolio_or_asset_id A portfolio's name as its reports name it, or an asset id such as SVC-WAT-ROLEX-126610LN-2021.
 * @param [from] First month-end to include: an Excel date or text YYYY-MM-DD.
 * @param [to] Last month-end to include: an Excel date or text YYYY-MM-DD.
 * @param [show_headers] TRUE to add a header row.
 * @param invocation Invocation context.
 * @returns as_of, value, net flows per month-end.
 * @cancelable
 * @requiresAddress
 */
export function history(portfolio_or_asset_id: string, from: any, to: any, show_headers: boolean, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return settle(invocation, (call) => historyTable(portfolio_or_asset_id, from, to, show_headers, call));
}

/**
 * A portfolio's return over a standard period at its latest recorded month-end, as a percentage:
 * the figure its month-end report gives (the same engine over the firm's history database,
 * read through the add-in host). #N/A with the report's reason where the history does not cover the period.
 * @customfunction PERFORMANCE
 * @param portfolio A portfolio's name as its reports name it.
 * @param period mtd, qtd, ytd, 1y, 3y or since_inception.
 * @param [measure] twr (time-weighted, the default) or mwr (money-weighted).
 * @param invocation Invocation context.
 * @returns The return, as a percentage (a yearly rate over periods longer than a year).
 * @cancelable
 * @requiresAddress
 */
export function performance(portfolio: string, period: string, measure: string, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  return settle(invocation, async (call) => {
    const name = readText('portfolio', portfolio);
    const p = readChoice('period', period, PERFORMANCE_PERIODS);
    const m = readChoice('measure', measure, PERFORMANCE_MEASURES, 'twr');
    const answer = await getRuntime().performance({ portfolio: name, period: p, measure: m }, call);
    return percent(answer.percent);
  });
}

/**
 * The insurance gap of an asset: its replacement value (the high estimate) less the insured
 * value given, positive when the cover falls short; where Excel shows cards on a number, the
 * cover status in the value's card.
 * @customfunction COVER
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param insured_value The insured (agreed) value on the policy, in the currency.
 * @param [currency] USD (default), EUR or GBP: of the insured value and the valuation.
 * @param invocation Invocation context.
 * @returns The gap, replacement value minus insured value.
 * @cancelable
 * @requiresAddress
 */
export function cover(asset: string, insured_value: number, currency: string, invocation: CustomFunctions.CancelableInvocation): Promise<any> {
  // The valuation SVC.MIDVALUE asks for, through the same batching queue: many cells, few calls.
  return settle(invocation, async (call) => {
    const insured = readOptionalAmount('insured_value', insured_value);
    if (insured === undefined) throw new InputError('insured_value', addinTranslator().t('addin.arg_required', { name: 'insured_value' }));
    const item = await valuationOf(asset, currency, call);
    return coverCell(coverOf(item, insured, new Date().toISOString().slice(0, 10)), item.estimated_value.currency, addinTranslator());
  });
}

/**
 * Forgets cached answers so cells calculated after it ask the service again; returns when.
 * Point it at a cell and change that cell to refresh (the task pane's Refresh button also recalculates every cell).
 * @customfunction REFRESH
 * @param [trigger] Any cell; changing it runs the refresh again.
 * @returns The time of the refresh.
 */
export function refresh(trigger: any): string {
  void trigger;
  void getRuntime().refresh();
  return new Date().toISOString().slice(11, 19) + ' UTC';
}


// The result is declared a matrix (Promise<any[][]>: "dimensionality": "matrix" in functions.json)
// so the row of builds without cards spills instead of showing its first field; where cards are
// shown the matrix is one cell holding the card, which Excel shows as the card itself.
/**
 * An asset card: the valuation as an Excel entity value, titled with brand and model, whose
 * fields work in formulas (=A2.Mid, =A2.Score) and whose card shows the value and where it
 * came from (source, as of, valid until) first. Where Excel cannot show cards (before
 * ExcelApi 1.16) the cell spills the SVC.VALUATION row instead.
 * @customfunction ASSET
 * @param asset Asset id, such as SVC-WAT-ROLEX-126610LN-2021.
 * @param [currency] USD (default), EUR or GBP.
 * @param invocation Invocation context.
 * @returns The asset's card; before ExcelApi 1.16, low, mid, high, currency, confidence, score, asset id.
 * @cancelable
 * @requiresAddress
 */
export function asset(asset: string, currency: string, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return settle(invocation, async (call) => {
    const holding = holdingForAssetId('asset', readText('asset', asset));
    const ccy = readCurrency('currency', currency);
    const asCard = hostShowsCards();
    const { value, staleSince } = await getRuntime().assetCard(requestForAssetId(holding), ccy, call, asCard);
    return asCard ? [[assetCard(value.valuation, value.source, staleSince, numberStyle())]] : [valuationRow(value.valuation)];
  });
}
