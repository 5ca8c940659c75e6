/** The formats a portfolio report is written in; the report job and the add-in's export share the list. */
export const REPORT_FORMATS = ['xlsx', 'csv', 'json', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
