import type { ReportData } from '../report-data';

/**
 * The report as a client's own document carries it. The JSON embedded in a client PDF travels
 * with the PDF to the client, so it is the client's version: the analyst's notes (tiers, scopes,
 * HTTP statuses, service limits) stay in the analyst's files — the .json beside the PDF, the
 * xlsx's Errors sheet and stderr. An internal report keeps them: its readers are the firm's.
 */
export function clientVersion(data: ReportData): ReportData {
  if (data.cover.audience !== 'client' || data.analyst_notes.length === 0) return data;
  return { ...data, analyst_notes: [] };
}
