/** Exchange rates from a file the firm supplies (the ECB's reference rates), and conversion through the euro. */
export { RateTable, MissingRateError, MAX_RATE_AGE_DAYS, type Quote } from './rate-table';
export { readRatesFile, parseRates, RatesFileError } from './read-rates';
export { isCurrencyCode } from './codes';
