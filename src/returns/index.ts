/** Return arithmetic shared by the report job (and any other caller): IRR and time-weighted returns. */
export { moneyWeightedReturn, moneyWeightedPeriodReturn, statedMoneyWeightedReturn, spanDays, spanOfDates, isAnnualisedSpan, DAYS_PER_YEAR, type CashFlow } from './money-weighted';
export { periodReturn, chainLink, type PeriodFlow } from './time-weighted';
export { annualise } from './annualise';
