import type { ServerResponse } from 'node:http';
import { HISTORY_ERRORS, PERFORMANCE_ERRORS, PERFORMANCE_MEASURES, PERFORMANCE_PERIODS, PortfolioPerformanceQuery, type PerformancePeriod, type PortfolioPerformanceResponse } from '../../src/wire';
import { PERIOD_KEYS, type PeriodKey } from '../../src/performance';
import { sendError, sendJson } from './http-util';
import { sendNoDatabase, sendNotAllowed, type HistoryRoute } from './history';
import { hostText, requestTranslator } from './host-text';
import { sendInvalidQuery } from './query-words';
import { reasonWords, textDate } from '../../reports';
import type { Translator } from '../../src/i18n';
import type { RequestContext } from './auth/request-context';

// The wire's periods are the engine's, both ways (the wire cannot import the engine): a compile-time check.
const _wireIsEngine: readonly PeriodKey[] = PERFORMANCE_PERIODS;
const _engineIsWire: readonly PerformancePeriod[] = PERIOD_KEYS;
void _wireIsEngine;
void _engineIsWire;

const ALLOWED: Record<string, readonly string[]> = { period: PERFORMANCE_PERIODS, measure: PERFORMANCE_MEASURES };

/**
 * GET /addin/performance?portfolio=…&period=…&measure=… (src/wire/performance.ts): the
 * portfolio's time- or money-weighted return over a standard period at its latest recorded
 * month-end, by the report's engine over the report's inputs as the database holds them. Read
 * by the same right as its history (checked before the database is asked) and audited with the
 * portfolio's name. A period the history does not cover is a 404 with the report's own reason.
 */
export async function handlePerformance(res: ServerResponse, params: URLSearchParams, route: HistoryRoute, ctx: RequestContext): Promise<void> {
  const { source, access } = route;
  if (!source) return sendNoDatabase(res);
  const parsed = PortfolioPerformanceQuery.safeParse({ portfolio: params.get('portfolio') ?? '', period: params.get('period') ?? undefined, measure: params.get('measure') ?? undefined });
  if (!parsed.success) return sendInvalidQuery(res, parsed.error, 'portfolio', params, ALLOWED);
  const { portfolio, period, measure } = parsed.data;
  ctx.historyKey = { portfolio };
  if (!access.allows(ctx.user!, portfolio)) return sendNotAllowed(res, { performance: portfolio });
  const recorded = await source.performance(portfolio);
  if (!recorded) return sendError(res, 404, HISTORY_ERRORS.noHistory, hostText('addin.host_no_history', { kind: 'portfolio', key: portfolio, range: 'none', from: '', to: '' }));
  const tr = requestTranslator(res.req);
  const notCovered = (reason: string) => sendError(res, 404, PERFORMANCE_ERRORS.notCovered, hostText('addin.host_period_not_covered', { portfolio, period, asOf: textDate(tr, recorded.asOf), reason }));
  if (recorded.problem) {
    const { file, row, currency } = recorded.problem;
    return notCovered(tr.t('addin.host_flow_not_converted', { file, row: String(row), currency, reporting: recorded.currency }));
  }
  const p = recorded.periods.periods[period];
  if (!p) return notCovered(engineReason(tr, recorded.periods.unavailable[period] ?? 'not available'));
  const percent = measure === 'twr' ? p.twr_percent : p.mwr_percent;
  // The period is covered but this return is not defined over it (a month-end missing inside it, no money in): the report's note says why.
  if (percent === null) return notCovered(engineReason(tr, noteFor(measure, p.note)));
  const body: PortfolioPerformanceResponse = { portfolio, period, measure, as_of: recorded.asOf, from: p.from, percent, annualised: p.annualised, currency: recorded.currency };
  sendJson(res, 200, body);
}

/**
 * The engine's reason (src/performance: stable English, as the report's JSON keeps it) in the
 * request's language, by the report's own translation of it (reports/client-words.ts); English
 * says it exactly as the engine wrote it, as the report's English does.
 */
function engineReason(tr: Translator, reason: string): string {
  return tr.lang === 'en' ? reason : reasonWords(tr, reason);
}

/** The part of the period's note about this measure ("time-weighted return: …"). */
function noteFor(measure: 'twr' | 'mwr', note: string | undefined): string {
  const name = measure === 'twr' ? 'time-weighted return' : 'money-weighted return';
  return note?.split('; ').find((n) => n.startsWith(name)) ?? `${name}: not available`;
}
