import { leftOut, sectionsLeftOut } from './section-failures';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AbortedError, describeLimits } from '../../src/client';
import type { Currency } from '../../src/wire';
import { buildConsolidatedReport, CONSOLIDATED_NAME } from '../build/consolidated';
import type { BuildContext } from '../build/context';
import { buildPortfolioReport } from '../build/portfolio-report';
import { readPreviousRun } from '../build/previous';
import { checkReportingCurrency, inServiceCurrency, serviceCurrencyFor } from '../build/fx';
import { readRatesFile } from '../../src/fx';
import { sayBrand } from './brand-lines';
import { fixedGeneratedAt, resolveSettings, type CommonFlags } from '../config';
import { requireCurrency } from '../../src/holdings/currency';
import { readRunInputs, sayInputs } from './run-inputs';
import { HistoryStore, portfolioPast } from './history-store';
import type { HistoryDatabase } from '../../src/db';
import type { TableReader } from '../../src/holdings/load';
import { runInfo } from './run-info';
import type { PortfolioInput } from '../../src/holdings/types';
import type { WrittenFile } from '../report-data';
import type { PortfolioResults } from './results';
import { WritePool } from './write-pool';
import { CHECKPOINT_FILE, Checkpoint, checkpointKey, describeDiscarded } from './checkpoint';
import { connect, type SharedSandbox } from './connect';
import { EXIT, InterruptedError, UsageError } from './exit-codes';
import { slugify } from '../writers/safe-path';
import type { Progress } from './progress';
import { valuationsToDo } from './valuate';
import { valueEverything } from './value-portfolios';
import { NO_TELEMETRY, type RunTelemetry } from './telemetry';

export interface RunOptions extends CommonFlags {
  files: string[];
  out: string;
  previous?: string;
  resume?: boolean;
  /** Calls in flight at most (--concurrency); default: sized from the service's pace and round trip. */
  concurrency?: number;
  /** --queue: seconds without any portfolio taken before the run says no worker has come (--worker-wait, default 30). */
  workerWait?: number;
  /** False: no consolidated report even for several portfolios (the demo's history months record portfolios, never a consolidation). */
  consolidated?: boolean;
}

export interface RunIo {
  signal: AbortSignal;
  progress: Progress;
  env?: NodeJS.ProcessEnv;
  /** Calls, portfolios' phases, chunks and files, for the metrics and logs. */
  telemetry?: RunTelemetry;
  /** Writers shared by several runs in one process (the demo): started once, closed by their owner. */
  writers?: WritePool;
  /**
   * The demo (reports/demo/demo-command.ts): its month-end is valued while the year before it is
   * still being recorded; the recorded month-ends are read once `ready` settles, through the
   * demo's one opening of the database. Without it the history is read before any call is spent.
   */
  history?: { ready: Promise<void>; database: HistoryDatabase };
  /** Runs of one process over the same inputs (the demo's history months): the files read once, and one embedded sandbox, left running, for all of them. */
  shared?: { tablesOf?: TableReader; sandbox?: SharedSandbox };
}

export interface RunOutcome {
  exitCode: number;
  files: string[];
  /** Sections left out because the service failed, as said on stderr (exit 3 even when every holding was valued). */
  sectionsLeftOut?: string[];
  /** Ledger rows refused, as listed on stderr (exit 3 even when every holding was valued). */
  ledgerRowsRefused?: number;
  /** False when the refused ledger rows are the run's only problem: then no holding went unvalued. */
  otherProblems?: boolean;
}

/**
 * The month-end run: read the holdings, value them in checkpointed chunks within the day's
 * budget, enrich, and write one report set per portfolio (plus a consolidated one).
 */
export async function runReports(opts: RunOptions, io: RunIo): Promise<RunOutcome> {
  const env = io.env ?? process.env;
  const log = (line: string) => io.progress.log(line);
  const settings = resolveSettings(opts, env);
  sayBrand(settings.brand, log);
  const loaded = await readRunInputs(opts.files, { asOf: settings.asOf, currency: settings.currency, decimalMark: settings.decimalMark, ignoreColumns: settings.ignoreColumns, tablesOf: io.shared?.tablesOf });
  sayInputs(loaded, settings.asOf, log);
  const portfolios = loaded.portfolios;
  const refusedIn = (name: string) => loaded.ledgerProblems.filter((x) => x.portfolio === name).length;
  checkDistinctFileNames(portfolios.map((p) => p.name));
  const currency = loaded.currency;
  // Exchange rates (--fx-rates): any purchase currency the file covers; the service is asked in one of its own.
  const fx = settings.fxRates ? await readRatesFile(settings.fxRates) : undefined;
  checkReportingCurrency(currency, fx);
  requireCurrency(portfolios, currency, fx && ((code) => fx.covers(code)));
  const asked = serviceCurrencyFor(currency);
  const previous = opts.previous ? await readPreviousRun(opts.previous) : undefined;
  for (const p of previous ? portfolios : []) {
    const before = previous!.byPortfolio.get(p.name);
    if (!before) log(`Warning: --previous ${opts.previous} has no report for "${p.name}"; its report shows no month-on-month change.`);
    // Figures in two currencies cannot be compared one for one: the comparison is left out, and said so.
    else if (before.currency !== undefined && before.currency !== currency) {
      log(`Warning: the previous report for "${p.name}" is in ${before.currency} and this run is in ${currency}; its report shows no month-on-month change (run with --currency ${before.currency} to compare).`);
    }
  }
  const outDir = resolve(opts.out);
  await mkdir(outDir, { recursive: true });

  const telemetry = io.telemetry ?? NO_TELEMETRY;
  // The recorded month-ends every portfolio needs, read now in one opening: the database is then let go until the month-ends are recorded.
  const openHistory = () => HistoryStore.open(settings.db, runInfo(settings, opts.files), log, portfolios.map((p) => p.name), settings.asOf, io.history?.database);
  let history: Promise<HistoryStore | undefined> | undefined = io.history ? io.history.ready.then(openHistory) : Promise.resolve(await openHistory());
  history.catch(() => {}); // awaited where the reports are built
  const conn = await connect(settings.service, { asOf: settings.asOf, log, telemetry, sandbox: io.shared?.sandbox }).catch(async (e: unknown) => {
    await closeHistory(history);
    throw e;
  });
  if (!conn.sandbox && opts.asOf && opts.asOf !== new Date().toISOString().slice(0, 10)) {
    log(`Note: --as-of ${opts.asOf} dates the reports, but the live service values as of today (only the sandbox values as of a past day).`);
  }
  let pool: WritePool | undefined;
  try {
    const key = checkpointKey(portfolios, settings.asOf, currency, settings.service.baseUrl ?? 'embedded-sandbox');
    const shape = new Map(portfolios.map((p) => [p.name, p.holdings.map((h) => h.assetId)]));
    let cp = opts.resume ? await Checkpoint.load(outDir, key, shape) : undefined;
    if (opts.resume) log(cp ? `Resuming from the checkpoint in ${outDir}.` : `No checkpoint in ${outDir}: starting from the beginning.`);
    const discarded = cp && describeDiscarded(cp.discarded);
    if (discarded) log(discarded);
    else if (await Checkpoint.exists(outDir)) {
      log(`Warning: an interrupted run's checkpoint is in ${outDir}; it is discarded and this run starts afresh (stop now and add --resume to continue it instead).`);
    }
    cp ??= Checkpoint.fresh(outDir, key, new Date().toISOString(), shape);
    const client = conn.client;
    const writers = io.writers ?? (pool = new WritePool());
    // Built at the first report: by then the client has seen whether the service is a sandbox.
    let context: BuildContext | undefined;
    const ctx = (): BuildContext =>
      (context ??= {
        asOf: settings.asOf,
        currency,
        generatedAt: fixedGeneratedAt(env) ?? cp.state.generated_at,
        // Marked as sandbox data when configured so, or when the service said it is one (x-sandbox: true), whatever the configuration.
        sandbox: conn.sandbox || client.servedBySandbox,
        preparedBy: settings.preparedBy,
        validatedWarningPercent: settings.validatedWarningPercent,
        insurance: settings.insurance,
        previous,
        fx,
        limitsInForce: describeLimits(client.rateLimitStatus()),
        brand: settings.brand,
        language: settings.language,
        csvHeaders: settings.csvHeaders,
      });
    // Each portfolio's reports are written (in worker threads) as soon as its results are in, while the others are valued.
    const byName = new Map(portfolios.map((p) => [p.name, p]));
    const writing = new Map<string, Promise<WrittenFile[]>>();
    let rowErrors = false;
    const leftOutSections: string[] = [];
    const sayLeftOut = (lines: string[]) => {
      leftOutSections.push(...lines);
      lines.forEach(log);
    };
    // Each portfolio's recorded month-ends, read before its report is built (the reports are written as results come in).
    const store = history;
    const past = new Map(portfolios.map((p) => [p.name, store.then((h) => portfolioPast(h, loaded.ledgers.get(p.name)!, { portfolio: p.name, asOf: settings.asOf, currency }, previous, log))]));
    for (const v of past.values()) v.catch(() => {}); // awaited in buildAndWrite
    const buildAndWrite = async (name: string, r: PortfolioResults): Promise<WrittenFile[]> => {
      const p = byName.get(name)!;
      sayLeftOut(sectionsLeftOut(name, r));
      const known = await past.get(name)!;
      const report = buildPortfolioReport(p, r, ctx(), known);
      (await store)?.record(report, known.ledger, log);
      // What the client PDF leaves out (tier, scope, HTTP detail, implausible returns) is the analyst's, here.
      for (const note of report.analyst_notes) log(`${p.name}: ${note}`);
      // An id the service did not issue is named on the terminal too, not only in the reports' errors.
      for (const e of report.errors) if (e.field === 'asset_id') log(`${p.name}: row ${e.row}, asset_id: ${e.message}`);
      // Refused ledger rows are in the report's errors too; they are counted apart (ledgerRowsRefused).
      rowErrors ||= report.errors.length > refusedIn(p.name);
      return writers.write(report, outDir, settings.formats);
    };
    const writePortfolio = (name: string, r: PortfolioResults) => {
      const written = buildAndWrite(name, r);
      written.catch(() => {}); // awaited below, in portfolio order
      writing.set(name, written);
    };

    const withConsolidated = opts.consolidated !== false && portfolios.length > 1;
    const results = await valueEverything(client, inServiceCurrency(portfolios, asked, currency, fx), cp, {
      currency: asked,
      signal: io.signal,
      progress: io.progress,
      consolidated: withConsolidated,
      concurrency: opts.concurrency ?? settings.concurrency,
      onPortfolio: writePortfolio,
      telemetry,
      allowUnknownIds: settings.allowUnknownIds,
    });
    const files: string[] = [];
    for (const p of portfolios) files.push(...(await writing.get(p.name)!).map((w) => w.path));
    if (withConsolidated) {
      const parts = await Promise.all(portfolios.map(async (p) => ({ input: p, results: results.get(p.name)!, past: await past.get(p.name)! })));
      const performance = cp.state.consolidated?.performance ?? { included: false as const, note: 'Omitted: not fetched.' };
      sayLeftOut(leftOut('Consolidated', 'performance against benchmarks', performance));
      const written = await writers.write(buildConsolidatedReport(parts, performance, ctx(), log), outDir, settings.formats);
      files.push(...written.map((w) => w.path));
    }
    telemetry.filesWritten(files);
    const closing = history;
    history = undefined;
    const notRecorded = (await (await closing)?.close()) ?? [];
    notRecorded.forEach(log);
    // Holdings that failed for a passing reason (budget, network, 5xx) can be valued later with --resume.
    const retryable = portfolios.reduce((n, p) => n + valuationsToDo(p, cp.portfolio(p.name)).length, 0);
    if (retryable > 0) {
      await cp.save();
      await cp.close();
      log(`${retryable} holding${retryable === 1 ? ' was' : 's were'} not valued for a passing reason (budget, network or service): run the same command with --resume later to value only ${retryable === 1 ? 'it' : 'them'}.`);
    } else {
      await cp.remove();
    }
    const otherProblems = notRecorded.length > 0 || rowErrors || leftOutSections.length > 0 || loaded.unreadable.length > 0 || [...results.values()].some((r) => r.valuations.some((v) => !v?.ok) || r.problems.length > 0) || portfolios.some((p) => p.problems.length > refusedIn(p.name));
    const incomplete = otherProblems || loaded.ledgerProblems.length > 0;
    return { exitCode: incomplete ? EXIT.partial : EXIT.ok, files, sectionsLeftOut: leftOutSections, ledgerRowsRefused: loaded.ledgerProblems.length, otherProblems };
  } catch (e) {
    if (e instanceof AbortedError || io.signal.aborted) {
      throw new InterruptedError(
        (await Checkpoint.exists(outDir))
          ? `Interrupted. What was valued is kept in ${join(outDir, CHECKPOINT_FILE)}; run the same command again with --resume to continue where it stopped.`
          : 'Interrupted before anything was valued; run the same command again to start.',
      );
    }
    throw e;
  } finally {
    io.progress.stop();
    await closeHistory(history);
    await pool?.close();
    await conn.close();
  }
}

/** Lets the database go on a failed run (what was recorded is kept); a history that never opened has nothing to close. */
async function closeHistory(history: Promise<HistoryStore | undefined> | undefined): Promise<void> {
  await (await history?.catch(() => undefined))?.close();
}

/** Two portfolios whose names give the same file names would overwrite each other's reports. */
function checkDistinctFileNames(names: readonly string[]): void {
  const all = names.length > 1 ? [...names, CONSOLIDATED_NAME] : names;
  const bySlug = new Map<string, string>();
  for (const name of all) {
    const slug = slugify(name);
    const other = bySlug.get(slug);
    if (other !== undefined) {
      throw new UsageError(`the portfolios "${other}" and "${name}" would be written to the same files (${slug}-…); rename one of them`);
    }
    bySlug.set(slug, name);
  }
}
