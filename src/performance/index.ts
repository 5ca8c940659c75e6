/**
 * A portfolio's own performance (issue 23), pure functions of its ledger and recorded month-end
 * values: flows, the monthly time-weighted return, the standard periods, realised and unrealised gains.
 */
export { ledgerFlows, convert, type DatedFlow, type RateFunction } from './flows';
export { subPeriodReturn, timeWeightedReturn, type SubPeriod, type ValuePoint } from './time-weighted';
export { performanceOverPeriods, periodStart, isLongerThanAYear, PERIOD_KEYS, type PeriodKey, type PeriodPerformance, type PeriodsResult } from './periods';
export { valueHistory, type ValueHistoryPoint } from './history';
export { realisedGains, unrealisedGain, type RealisedGainLine, type UnrealisedGainLine } from './gains';
export { addYears, daysBetween, endOfMonth, isMonthEnd, monthEndBefore, monthEndsBetween } from './dates';
export { portfolioPerformance, NO_EARLIER_MONTH_END, type KeyedValue, type MonthChange, type PortfolioPerformance, type PortfolioPerformanceInput, type SinceInception } from './portfolio';
