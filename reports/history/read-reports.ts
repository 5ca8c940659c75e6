import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isRealDate } from '../../src/wire';
import { InputError } from '../../src/holdings/types';
import { PreviousReportDocument } from '../build/previous';
import { CONSOLIDATED_NAME } from '../build/consolidated';

const date = z.string().refine(isRealDate, 'must be a date that exists, as YYYY-MM-DD');

/**
 * What `history import` needs of a portfolio report: month-on-month's reading
 * (reports/build/previous.ts, tolerant of every schema 1.x) plus each holding's valuation and
 * purchase, which every version since 1.0 writes. Fields added later (audience, purchase
 * currencies) are optional; anything else in the document is ignored.
 */
const ImportedHolding = PreviousReportDocument.shape.holdings.element.extend({
  row: z.number().int(),
  description: z.string().optional(),
  quantity: z.number().positive(),
  purchase_date: date,
  purchase_price: z.number(),
  value_low: z.number().nullable().optional(),
  value_high: z.number().nullable().optional(),
  confidence: z.number().nullable().optional(),
  market_validated: z.boolean().nullable().optional(),
  /** Not written by schemas up to 1.2; kept when a later report carries the service's id. */
  valuation_id: z.string().optional(),
});
const ImportedReport = PreviousReportDocument.extend({
  schema_version: z.string().regex(/^1\.\d+\.\d+$/, 'must be 1.x.y (this tool reads schema 1)').optional(),
  as_of: date,
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
  sandbox: z.boolean().optional(),
  audience: z.enum(['client', 'internal']).optional(),
  holdings: z.array(ImportedHolding),
});
export type ImportedReport = z.infer<typeof ImportedReport>;
export type ImportedHolding = z.infer<typeof ImportedHolding>;

/** One JSON file of a report folder, as the import takes it. */
export type ReportFile =
  | { kind: 'report'; file: string; report: ImportedReport }
  /** Not a client portfolio's report: said in one line, then left alone. */
  | { kind: 'skipped'; file: string; why: string }
  /** Meant to be a portfolio report but unreadable: named with what is wrong; the others are still imported. */
  | { kind: 'malformed'; file: string; problem: string };

/**
 * Every `*.json` file of a report folder (hidden files aside), by name. A folder that cannot be
 * read, or holds no portfolio report at all, is an error naming it (exit 2).
 */
export async function readReportFolder(dir: string): Promise<ReportFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new InputError(`cannot read the report folder ${dir}: it does not exist or is not readable`);
  }
  const files = await Promise.all(names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort().map((n) => readReportFile(join(dir, n))));
  if (!files.some((f) => f.kind !== 'skipped')) {
    throw new InputError(`the folder ${dir} holds no JSON portfolio report (the *.json files svc-report run writes)`);
  }
  return files;
}

/** One file: a portfolio report, a file to skip (consolidated, dashboard, anything else), or a malformed report. */
export async function readReportFile(file: string): Promise<ReportFile> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    return { kind: 'malformed', file, problem: e instanceof SyntaxError ? `not valid JSON (${e.message})` : `cannot be read (${(e as Error).message})` };
  }
  const kind = kindOf(doc);
  if (kind !== 'portfolio report') return { kind: 'skipped', file, why: kind };
  const parsed = ImportedReport.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { kind: 'malformed', file, problem: `${issue.path.join('.') || 'the document'}: ${issue.message}` };
  }
  // Before schema 1.1 the consolidated report had no audience: its name says what it is.
  if (parsed.data.audience === 'internal' || (parsed.data.audience === undefined && parsed.data.portfolio.name === CONSOLIDATED_NAME)) {
    return { kind: 'skipped', file, why: 'the consolidated report of all portfolios (each portfolio is imported from its own report)' };
  }
  return { kind: 'report', file, report: parsed.data };
}

/** What a JSON document is, by the keys each kind always writes. */
function kindOf(doc: unknown): string {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'not a report';
  const has = (key: string) => Object.hasOwn(doc, key);
  if (has('portfolio') && has('holdings')) return 'portfolio report';
  if (has('segments') && has('top_movers')) return 'a market dashboard';
  if (has('manifest_version')) return "the folder's manifest";
  return 'not a portfolio report';
}
