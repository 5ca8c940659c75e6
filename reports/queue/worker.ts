import { describeLimits } from '../../src/client';
import { realpath } from 'node:fs/promises';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { buildPortfolioReport } from '../build/portfolio-report';
import { inServiceCurrency } from '../build/fx';
import { resolveSettings, type CommonFlags } from '../config';
import type { Brand } from '../../src/brand';
import { connect, type Connection } from '../run/connect';
import { UsageError } from '../run/exit-codes';
import type { Progress } from '../run/progress';
import { valuationsToDo } from '../run/valuate';
import { valueEverything } from '../run/value-portfolios';
import { writeReport } from '../writers';
import { describeRedisUrl, openRedis } from '../../src/scale-out';
import { redisCheck, serviceCheck, type ReadinessCheck } from '../../src/ops';
import type { ReportMetrics } from '../ops/report-metrics';
import { NO_TELEMETRY, type RunTelemetry } from '../run/telemetry';
import { QUEUE_NAME, bullConnection, resultPurpose, type PortfolioJobResult, type SignedResult } from './jobs';
import { RedisJournal } from './redis-journal';
import { acceptJob } from './accept-job';
import { queueSecret } from './queue-secret';
import { QueueSigner } from './queue-signer';
import { RatesCache, RatesUnavailable } from './rates-store';
import { FolderRefused, runFolderInside } from './run-folder';
import { QueueRuns } from './run-record';
import { refusalForRun } from './run-admission';
import { refusalForApprovedFolder } from './approved-folder';
import { recordFailure } from './failure-reasons';
import { prepareOutDir } from '../out-dir';
import { HistoryStore, portfolioPast } from '../run/history-store';
import { runInfo } from '../run/run-info';
import { jobPast } from './job-past';

export interface WorkerOptions extends CommonFlags {
  /** The worker's own folder: every job's run folder is inside it (required). */
  out: string;
  /** Portfolios this worker values at once (BullMQ's worker concurrency). */
  portfolios?: number;
  /** Calls in flight at most per portfolio; default: sized from the pace and round trip. */
  concurrency?: number;
  /** How long a job's lock lasts without renewal: a killed worker's portfolio goes to another after about this long (tests shorten it). */
  lockMs?: number;
  /** How long readiness keeps the service's answer (default a minute; tests shorten it). */
  readyCheckMs?: number;
}

export interface RunningWorker {
  /** Stops taking portfolios, lets those in hand finish (or, after `graceMs`, hands them back to the queue). */
  close(): Promise<void>;
  /** What /readyz asks: the service (a sign-in) and Redis (a PING). */
  readinessChecks: ReadinessCheck[];
}

/**
 * `svc-report worker`: takes portfolios off the queue one job at a time (or `portfolios` at
 * once), values them with the account's shared gate and journal in Redis, and writes their
 * reports into the job's run folder inside its own --out. A job is used only when the
 * coordinating run's MAC over it verifies and its data checks (accept-job.ts); anything else is
 * refused unexecuted, failed at once with the reason. BullMQ does the rest: a job
 * whose worker died (its lock lapsed) is stalled and given to another worker; a failed one is
 * retried with backoff.
 */
export async function startWorker(opts: WorkerOptions, log: (line: string) => void, signal: AbortSignal, ops: { telemetry?: RunTelemetry; metrics?: ReportMetrics; env?: NodeJS.ProcessEnv } = {}): Promise<RunningWorker> {
  const { metrics } = ops;
  const telemetry = ops.telemetry ?? NO_TELEMETRY;
  const signer = new QueueSigner(queueSecret(ops.env ?? process.env, 'svc-report worker'));
  const settings = resolveSettings(opts, ops.env);
  // Links in --out itself are the operator's; from here on, nothing leads out of its real path.
  const root = await realpath(await prepareOutDir(opts.out));
  const { redisUrl, baseUrl } = settings.service;
  if (!redisUrl) throw new UsageError('svc-report worker needs Redis: give --redis URL, SVC_REDIS_URL or redis_url in the config file');
  if (!baseUrl) throw new UsageError('svc-report worker needs the service every worker shares: set SVC_BASE_URL, SVC_CLIENT_ID and SVC_CLIENT_SECRET (or the config file)');
  // One connection per valuation day: the sandbox values as of the run's --as-of (a header set per client).
  const conns = new Map<string, Promise<Connection>>();
  const connectFor = (asOf: string) => {
    if (!conns.has(asOf)) conns.set(asOf, connect(settings.service, { asOf, log, telemetry }));
    return conns.get(asOf)!;
  };
  // The database first, before anything is connected: one that cannot be opened ends the worker
  // at once (exit 2, named without a password) instead of leaving it up, connected and serving nothing.
  const history = await HistoryStore.open(settings.db, runInfo(settings), log);
  let first: Connection;
  let redis: Awaited<ReturnType<typeof openRedis>>;
  try {
    first = await connectFor(settings.asOf);
    redis = await openRedis(redisUrl, { name: 'svc-report-worker-journal' });
  } catch (e) {
    for (const c of conns.values()) await c.then((conn) => conn.close()).catch(() => {});
    await history?.close({ finish: false });
    throw e;
  }
  const rates = new RatesCache(redis);
  const runs = new QueueRuns(redis, signer);
  const execute = async (job: Job<unknown, SignedResult>): Promise<SignedResult> => {
    const accepted = acceptJob(signer, job.id, job.data);
    if (!accepted.ok) refuse(job, accepted.why);
    const d = accepted.data;
    // Valid once, for one run: a job kept or captured from Redis and added back is refused here.
    const notNow = await refusalForRun(runs, job.id!, d);
    if (notNow) refuse(job, notNow);
    // Completed once for this run: never executed again; BullMQ may hand out a finished job whose lock lapsed, so it ends with the result recorded then.
    const earlier = await runs.completed(d.runId, job.id!);
    if (earlier) {
      log(`Job ${describeJobId(job.id)} was already executed for this run (completed at ${earlier.at}): not executed again; it ends with the result recorded then.`);
      return earlier.result as SignedResult;
    }
    const name = d.portfolio.name;
    const brand = d.brand && brandFor(d.brand);
    if (typeof brand === 'string') refuse(job, brand);
    let fx;
    try {
      fx = d.fxRates ? await rates.get(d.fxRates) : undefined;
    } catch (e) {
      if (e instanceof RatesUnavailable && e.final) refuse(job, e.message);
      throw e;
    }
    // Last of the checks, as it makes the folder: a job refused for anything else leaves nothing behind.
    let dir: string;
    try {
      dir = await runFolderInside(root, d.folder);
    } catch (e) {
      refuse(job, e instanceof FolderRefused ? e.message : "the job's folder cannot be made inside the worker's --out");
    }
    const approved = await refusalForApprovedFolder(dir);
    if (approved) refuse(job, approved);
    log(`Valuing "${name}" (${d.portfolio.holdings.length} holdings, attempt ${job.attemptsMade + 1}).`);
    // The portfolio's previous report came as content in the (verified) job: nothing is read from a path.
    const previous = d.previous ? { byPortfolio: new Map(d.previous.report ? [[name, d.previous.report]] : []) } : undefined;
    const journal = await new RedisJournal(redis, d.runKey, signer).load([name]);
    for (const entry of journal.refused) log(`${name}: refused a journal entry in Redis (${entry}): its MAC or data does not check; valued again.`);
    const conn = await connectFor(d.asOf);
    const progress: Progress = {
      update: (s) => void job.updateProgress({ done: s.done, total: s.total }).catch(() => {}),
      log: (line) => log(`${name}: ${line}`),
      stop: () => {},
    };
    const results = await valueEverything(conn.client, inServiceCurrency([d.portfolio], d.asked, d.currency, fx), journal, {
      currency: d.asked,
      signal,
      progress,
      consolidated: false,
      concurrency: opts.concurrency ?? settings.concurrency,
      telemetry,
      allowUnknownIds: d.allowUnknownIds,
    });
    const r = results.get(name)!;
    const servedBySandbox = conn.client.servedBySandbox;
    const ctx = { asOf: d.asOf, currency: d.currency, generatedAt: d.generatedAt, sandbox: d.sandbox || servedBySandbox, preparedBy: d.preparedBy, brand, validatedWarningPercent: d.validatedWarningPercent, insurance: d.insurance, previous, fx, limitsInForce: describeLimits(conn.client.rateLimitStatus()), language: d.language };
    // The database held for this job's reading and recording alone, never while valuing or idle.
    await history?.read([name], d.asOf);
    const known = await portfolioPast(history, d.ledger ?? { entries: [], realisations: [] }, { portfolio: name, asOf: d.asOf, currency: d.currency }, previous, progress.log);
    const report = buildPortfolioReport(d.portfolio, r, ctx, known);
    // Again before recording or writing anything: a reviewer may have approved the folder while this job was valuing.
    const approvedSince = await refusalForApprovedFolder(dir);
    if (approvedSince) refuse(job, approvedSince, 'valued, but nothing recorded or written');
    // Recorded before the job completes: when the run ends, every month-end it made is in the database.
    history?.record(report, known.ledger, progress.log);
    // Recorded, and the worker's run marked finished as of its latest job (so stopping needs no opening).
    await history?.flush(true);
    history?.takeFailures().forEach(progress.log);
    const written = await writeReport(report, dir, d.formats);
    telemetry.filesWritten(written.map((w) => w.path));
    log(`"${name}" done: ${written.length} files written.`);
    const result: PortfolioJobResult = {
      results: r,
      files: written.map((w) => w.path),
      notes: report.analyst_notes,
      rowErrors: report.errors.length > 0,
      retryable: valuationsToDo(d.portfolio, journal.portfolio(name)).length,
      servedBySandbox,
      journalRefused: journal.refused,
      past: jobPast(known),
    };
    const signed = signer.sign(resultPurpose(job.id!), result);
    await runs.markCompleted(d.runId, job.id!, d.expiresAt, signed);
    return signed;
  };
  /** Every failure's reason is signed into Redis as well, so the coordinating run can tell it from one written by someone else (failure-reasons.ts). */
  const processor = async (job: Job<unknown, SignedResult>): Promise<SignedResult> => {
    try {
      return await execute(job);
    } catch (e) {
      if (job.id !== undefined) await recordFailure(redis, signer, job.id, (e as Error).message).catch(() => {});
      throw e;
    }
  };
  /** The worker's own brand for a job's, or why not: it must be the same brand, byte for byte. */
  function brandFor(asked: { firm: string; sha256: string }): Brand | string {
    const own = settings.brand;
    if (own?.digest === asked.sha256) return own;
    const mine = own ? `this worker's is ${own.firmName}'s (${own.file}, SHA-256 ${own.digest.slice(0, 12)}…)` : 'this worker has none (--brand, or brand in its config)';
    return `the run's brand is ${asked.firm}'s (SHA-256 ${asked.sha256.slice(0, 12)}…) but ${mine}: start every worker with the run's brand file`;
  }
  /** A job not executed: said in the worker's log and as the job's failure reason, not retried (it cannot verify next time either). */
  function refuse(job: Job, why: string, done = 'not executed (nothing read, valued or written)'): never {
    log(`Refused job ${describeJobId(job.id)}: ${why}; ${done}.`);
    throw new UnrecoverableError(`refused: ${why}`);
  }
  const lockDuration = opts.lockMs ?? 30_000;
  const connection = bullConnection(redisUrl, 'svc-report-worker');
  const worker = new Worker<unknown, SignedResult>(QUEUE_NAME, processor, {
    connection,
    concurrency: opts.portfolios ?? 1,
    lockDuration,
    stalledInterval: lockDuration,
    // A portfolio whose worker died twice is still given out again (its landed chunks are not valued again).
    maxStalledCount: 3,
  });
  // The job's data is not trusted here: the line names the job by id, never by what its data says.
  worker.on('failed', (job, err) => {
    if (err instanceof UnrecoverableError || err.name === 'UnrecoverableError') return;
    log(`Job ${describeJobId(job?.id)} failed (${err.message}); BullMQ retries it with backoff.`);
  });
  await worker.waitUntilReady();
  // The queue's job counts for the metrics, on a connection of their own (the worker's is BullMQ's).
  const countsConnection = metrics ? bullConnection(redisUrl, 'svc-report-worker-metrics') : undefined;
  const counts = countsConnection ? new Queue(QUEUE_NAME, { connection: countsConnection }) : undefined;
  if (counts) metrics!.watchQueue(counts);
  metrics?.touch();
  log(`Worker ready: taking month-end portfolios from the queue at ${describeRedisUrl(redisUrl)}.`);
  return {
    readinessChecks: [serviceCheck(first.client, opts.readyCheckMs), redisCheck(redis, describeRedisUrl(redisUrl))],
    close: async () => {
      await worker.close();
      await counts?.close();
      countsConnection?.disconnect();
      connection.disconnect();
      for (const c of conns.values()) await (await c).close();
      redis.disconnect();
      (await history?.close({ finish: false }))?.forEach(log);
    },
  };
}

/** A job id as found in Redis (anyone's string): shortened for the log. */
function describeJobId(id: string | undefined): string {
  if (id === undefined) return '(no id)';
  return id.length > 80 ? `${id.slice(0, 80)}…` : id;
}
