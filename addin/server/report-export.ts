import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceClient } from '../../src/client';
import { checkInput } from '../../src/client/validate';
import { ReportExportRequest, type ReportFormat } from '../contract/host-pane';
import type { PortfolioInput } from '../../src/holdings/types';
import { buildPortfolioReport, enrich, resultsOf, valuate, writeReport, type PortfolioState } from '../../reports';
import { readHoldingsGrid, todayUtc } from '../src/shared/holdings';
import { HttpProblem, readJson, sendBytes } from './http-util';
import { hostText } from './host-text';
import { sendServiceError } from './proxy';
import type { ServiceTarget } from './service-target';
import type { Brand } from '../../src/brand';
import type { RequestContext } from './auth/request-context';
import { exportPast } from './export-history';
import type { HistoryRoute } from './history';

const CONTENT_TYPES: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
};

const PREPARED_BY = 'SVC Luxury Valuations Excel add-in';

/** Large enough for the report job's 1,000-holding portfolios typed into a sheet. */
const MAX_EXPORT_BYTES = 8 * 1024 * 1024;

/** The body checked against the contract before anything reads it: a 400 naming the field, never a crash. */
function parseRequest(body: unknown): ReportExportRequest {
  const checked = checkInput(ReportExportRequest, body, 'exportReport');
  if (!checked.ok) throw checked.error;
  return checked.value;
}

/**
 * "Export report": the report job's own pipeline, run here in Node on the posted holdings
 * (the same reader, valuation, enrichment, ReportData builder and writers as svc-report),
 * answering with the one file. The browser never builds a report itself. Its returns rest on
 * the portfolio's month-ends in the host's history database where the user may read them
 * (export-history.ts), else on the holdings alone, and the report says which.
 */
export async function handleReportExport(req: IncomingMessage, res: ServerResponse, ctx: { client: ServiceClient; service: ServiceTarget; brand?: Brand; history: HistoryRoute }, requestContext: RequestContext): Promise<void> {
  let dir: string | undefined;
  try {
    const request = parseRequest(await readJson(req, MAX_EXPORT_BYTES));
    const name = (request.portfolio_name ?? request.sheet ?? 'Portfolio').trim().slice(0, 200) || 'Portfolio';
    const currency = request.currency ?? 'USD';
    const asOf = todayUtc();
    const { rows, recognised } = readHoldingsGrid(request.grid, { sheet: request.sheet, firstRow: request.first_row ?? 1, purpose: 'report' });
    if (!recognised) throw new HttpProblem(400, 'validation_error', hostText('addin.host_no_header'), 'grid');
    const input: PortfolioInput = {
      name,
      files: ['workbook'],
      holdings: rows.flatMap((r) => ('holding' in r ? [r.holding] : [])),
      problems: rows.flatMap((r) => ('problems' in r ? r.problems : [])),
    };
    if (input.holdings.length === 0) {
      // Nothing to value: say which rows and why before any call is spent (the report job writes no report either).
      const first = input.problems.slice(0, 3).map((p) => `row ${p.row ?? '?'}, ${p.field}: ${p.reason}`);
      // The rows' reasons are the holdings reader's, in English as the report job gives them (docs/i18n.md).
      throw new HttpProblem(400, 'validation_error', first.length ? hostText('addin.host_no_holding_rows', { rows: first.join('; ') }) : hostText('addin.host_no_holding'), 'grid');
    }
    const signal = new AbortController().signal;
    const state: PortfolioState = { valuations: input.holdings.map(() => null), scores: input.holdings.map(() => null) };
    await valuate(ctx.client, input, state, { currency, signal, afterChunk: async () => undefined });
    state.enrichment = await enrich(ctx.client, input, state.valuations, { currency, signal });
    const results = resultsOf(state);
    const past = await exportPast(input, { asOf, currency }, ctx.history, requestContext);
    // No history section, as before: its realised gains need the ledger's lots, which the database does not keep (the month-end report has them).
    const { history: _section, ...data } = buildPortfolioReport(input, results, { asOf, currency, generatedAt: new Date().toISOString(), sandbox: (ctx.service.sandbox ?? false) || ctx.client.servedBySandbox, preparedBy: ctx.brand?.firmName ?? PREPARED_BY, brand: ctx.brand }, past);
    dir = await mkdtemp(path.join(tmpdir(), 'svc-addin-report-'));
    const [file] = await writeReport(data, dir, [request.format]);
    const bytes = await readFile(file!.path);
    sendBytes(res, 200, bytes, CONTENT_TYPES[request.format], {
      'content-disposition': contentDisposition(path.basename(file!.path)),
      'cache-control': 'no-store',
      'x-report-holdings': String(input.holdings.length),
      'x-report-problems': String(input.problems.length),
    });
  } catch (err) {
    sendServiceError(res, err);
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * RFC 6266: report files are named in the portfolio's own script (山田家-2026-10-31.pdf), which a
 * header cannot carry raw (Node refuses characters past Latin-1): an ASCII fallback name, and the
 * real one percent-encoded as filename* (RFC 5987).
 */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
