/**
 * What a month-end of the same day already valued, so the broker's schedule spends no second
 * call on it (issue 37). A finished `run` keeps no checkpoint (it removes it), so its answers
 * are its JSON reports: each holding's low, mid and high, in the report's currency. They are
 * taken only when the folder's manifest vouches for them: a `run` recorded there for the same
 * as-of day, service and sandbox flag wrote the file, its SHA-256 is the one recorded, and a
 * signed manifest verifies under the firm's key when one is configured. An interrupted run's
 * checkpoint for the same inputs is read too. Anything else is valued again, never trusted.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { PortfolioInput } from '../../src/holdings/types';
import { CHECKPOINT_FILE, checkpointKey, readCheckpointState, type PortfolioState } from '../run/checkpoint';
import type { ItemResult } from '../run/results';
import { publicBaseUrl, readManifestDocument, runsOf } from '../run-manifest';
import { readRegularFile } from '../../src/regular-file';
import { checkManifestSignature } from '../manifest-signature';
import type { ManifestKey } from '../manifest-key';

/** A report JSON is a few hundred bytes a holding: far past any month-end's, and it bounds what a planted file costs. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;
/** How long one report may take to read before it is not trusted (a stalled disk, not a FIFO: those are refused at the open). */
const READ_MS = 60_000;

/** What is read of a month-end's JSON report (reports/schema/portfolio-report.schema.json); the rest is ignored. */
const MonthEndReport = z.object({
  portfolio: z.object({ name: z.string() }),
  as_of: z.string(),
  currency: z.string(),
  holdings: z.array(
    z.object({
      row: z.number().int(),
      asset_id: z.string(),
      quantity: z.number(),
      fx_rate_as_of: z.number().positive(),
      value_low: z.number(),
      current_value: z.number(),
      value_high: z.number(),
      confidence: z.number(),
      service_score: z.number(),
      momentum: z.string(),
      market_validated: z.boolean(),
    }),
  ),
});
type MonthEndHolding = z.infer<typeof MonthEndReport>['holdings'][number];

export interface MonthEndAnswers {
  /** Per portfolio, index-aligned with its holdings: the answer reused, or null (to value). */
  states: Map<string, PortfolioState>;
  /** The files the answers came from (for the terminal), or why none were taken. */
  from: string[];
  why?: string;
}

export interface AnswersWanted {
  dir: string;
  asOf: string;
  /** The report currency; the service's answers are in `asked` (run-job's serviceCurrencyFor). */
  currency: string;
  asked: string;
  baseUrl: string | undefined;
  sandbox: boolean;
  key: ManifestKey | undefined;
}

/**
 * The answers of the same day's month-end in `want.dir` for these portfolios (all of the input
 * files' portfolios, before any --portfolio filter: a checkpoint is keyed by all of them).
 */
export async function monthEndAnswers(portfolios: readonly PortfolioInput[], want: AnswersWanted): Promise<MonthEndAnswers> {
  const states = new Map(portfolios.map((p) => [p.name, { valuations: p.holdings.map(() => null), scores: [] } as PortfolioState]));
  const from: string[] = [];
  const checkpoint = await checkpointAnswers(portfolios, want);
  for (const [name, state] of checkpoint) {
    const into = states.get(name)!;
    state.valuations.forEach((v, i) => {
      if (v?.ok && v.asset_id !== undefined && i < into.valuations.length) into.valuations[i] = v;
    });
  }
  if (checkpoint.size > 0) from.push(CHECKPOINT_FILE);
  const reports = await vouchedReports(want);
  if ('why' in reports) return { states, from, why: reports.why };
  for (const { file, report } of reports.files) {
    const p = portfolios.find((x) => x.name === report.portfolio.name);
    if (!p || report.as_of !== want.asOf || report.currency !== want.currency) continue;
    const state = states.get(p.name)!;
    let used = false;
    p.holdings.forEach((h, i) => {
      if (state.valuations[i]) return;
      // The same line of the input: its row, its quantity and its asset; a row two files share is ambiguous and valued again.
      const same = report.holdings.filter((r) => r.row === h.source.row && r.quantity === h.quantity && (r.asset_id === h.assetId || !h.assetIdGiven));
      if (same.length !== 1) return;
      state.valuations[i] = asAnswer(same[0]!, want.asked);
      used = true;
    });
    if (used) from.push(file);
  }
  return { states, from };
}

/** A report's holding as the service's answer it was built from: the report converted at fx_rate_as_of, so dividing by it gives the answer back. */
function asAnswer(h: MonthEndHolding, asked: string): ItemResult {
  const back = (amount: number) => amount / h.fx_rate_as_of;
  return {
    ok: true,
    asset_id: h.asset_id,
    low: back(h.value_low),
    mid: back(h.current_value),
    high: back(h.value_high),
    currency: asked,
    confidence: h.confidence,
    service_score: h.service_score,
    momentum: h.momentum,
    market_validated: h.market_validated,
  };
}

/** The JSON reports a same-day `run` wrote into the folder, as its manifest records them; or why none is taken. */
async function vouchedReports(want: AnswersWanted): Promise<{ files: { file: string; report: z.infer<typeof MonthEndReport> }[] } | { why: string }> {
  let read;
  try {
    read = await readManifestDocument(want.dir);
  } catch {
    return { why: `no month-end manifest in ${want.dir}` };
  }
  const signature = checkManifestSignature(read.doc, want.key);
  if (signature.state === 'invalid') return { why: `the manifest in ${want.dir} does not verify (${signature.why})` };
  const baseUrl = publicBaseUrl(want.baseUrl);
  const sameDay = new Set(
    runsOf(read.manifest)
      .filter((r) => r.command === 'run' && r.valuations_as_of === want.asOf && r.service.base_url === baseUrl && r.service.sandbox === want.sandbox)
      .map((r) => r.run_id),
  );
  if (sameDay.size === 0) return { why: `the folder ${want.dir} holds no month-end of ${want.asOf} from this service` };
  const files: { file: string; report: z.infer<typeof MonthEndReport> }[] = [];
  for (const entry of read.manifest.files) {
    if (!entry.name.endsWith('.json') || entry.name !== entry.name.split(/[\\/]/).pop() || !sameDay.has(entry.run_id ?? '')) continue;
    const file = join(want.dir, entry.name);
    // A regular file of a sane size whose bytes are the ones recorded, read once through the one
    // regular-file reader (no link followed, no FIFO or device opened, bounded in size and time):
    // the bytes hashed are the bytes parsed, so nothing swapped in between is trusted.
    if (entry.bytes > MAX_REPORT_BYTES) continue;
    let doc: unknown;
    try {
      const bytes = await readRegularFile(file, { maxBytes: MAX_REPORT_BYTES, deadline: Date.now() + READ_MS });
      if (bytes.length !== entry.bytes || createHash('sha256').update(bytes).digest('hex') !== entry.sha256) continue;
      doc = JSON.parse(bytes.toString('utf8'));
    } catch {
      continue;
    }
    const parsed = MonthEndReport.safeParse(doc);
    if (parsed.success) files.push({ file: entry.name, report: parsed.data });
  }
  return { files };
}

/** An interrupted month-end's checkpoint for exactly these inputs (its key), else nothing. */
async function checkpointAnswers(portfolios: readonly PortfolioInput[], want: AnswersWanted): Promise<Map<string, PortfolioState>> {
  const key = checkpointKey(portfolios, want.asOf, want.currency, want.baseUrl ?? 'embedded-sandbox');
  const shape = new Map(portfolios.map((p) => [p.name, p.holdings.map((h) => h.assetId)]));
  const state = await readCheckpointState(join(want.dir, CHECKPOINT_FILE), { key, shape }).catch(() => undefined);
  return new Map(Object.entries(state?.portfolios ?? {}));
}
