/** The formats a portfolio report is written in; the report job and the add-in's export share the list. */
export const REPORT_FORMATS = ['xlsx', 'csv', 'json', 'pdf', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * The formats a run writes when none are named: the four documents of record. The web page
 * (issue 38) is opt-in, `--formats html` (docs/decisions.md): the PDF stays the document of record.
 */
export const DEFAULT_FORMATS: readonly ReportFormat[] = ['xlsx', 'csv', 'json', 'pdf'];

/**
 * The CSV's header row (issue 36, docs/decisions.md): `localised`, the columns' labels in the
 * report's language (English documents keep the machine-stable keys, already English), or
 * `english`, the machine-stable keys ("asset_id") in every language, for import pipelines.
 */
export const CSV_HEADERS = ['localised', 'english'] as const;
export type CsvHeaders = (typeof CSV_HEADERS)[number];
export const DEFAULT_CSV_HEADERS: CsvHeaders = 'localised';
