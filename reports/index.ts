/**
 * The report job as a library: the one module other products (the add-in's host, which exports
 * a report of a sheet's holdings) may import. Everything else under reports/ is the job's own.
 */
export { valuate } from './run/valuate';
export { enrich } from './run/enrich';
export { resultsOf, type PortfolioState } from './run/checkpoint';
export { buildPortfolioReport } from './build/portfolio-report';
export { aloneBecause, FROM_HISTORY_DATABASE, heldAlone, type HistoryInput } from './build/performance';
export { writeReport } from './writers';
export { REPORT_FORMATS, type ReportFormat } from './report-data';
export { reasonWords } from './client-words';
export { textDate } from './writers/labels';
