/**
 * A portfolio's own performance (issues 23 and 34), pure functions of its ledger and recorded
 * month-end values: flows, the time-weighted return (months split at large flows), the standard
 * periods, realised and unrealised gains.
 */
export { ledgerFlows, convert, FLOW_KIND, type DatedFlow, type FlowKind, type RateFunction } from './flows';
export { LARGE_FLOW_SHARE, monthReturn, subPeriodReturn, timeWeightedReturn, type MonthPeriod, type SubPeriod, type ValuePoint } from './time-weighted';
export { performanceOverPeriods, periodStart, isLongerThanAYear, PERIOD_KEYS, type PeriodKey, type PeriodPerformance, type PeriodsResult } from './periods';
export { periodsFromHistory } from './recorded-periods';
export { valueHistory, type ValueHistoryPoint } from './history';
export { TIME_WEIGHTED_METHOD } from './method';
export { realisedGains, unrealisedGain, type RealisedGainLine, type UnrealisedGainLine } from './gains';
export { addYears, daysBetween, endOfMonth, isMonthEnd, monthEndBefore, monthEndsBetween } from './dates';
export { portfolioPerformance, NO_EARLIER_MONTH_END, NOT_ENOUGH_HISTORY, type KeyedValue, type MonthChange, type PortfolioPerformance, type PortfolioPerformanceInput, type SinceInception } from './portfolio';
