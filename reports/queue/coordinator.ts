import { leftOut, sectionsLeftOut } from '../run/section-failures';
import { DEFAULT_WORKER_WAIT_S, noticeIdleQueue } from './worker-wait';
import { describeLimits } from '../../src/client';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { readRatesSource } from '../../src/fx';
import { requireCurrency } from '../../src/holdings/currency';
import { readRunInputs, sayInputs } from '../run/run-inputs';
import type { PortfolioInput } from '../../src/holdings/types';
import { openRedis } from '../../src/scale-out';
import { buildConsolidatedReport } from '../build/consolidated';
import { checkReportingCurrency, inServiceCurrency, serviceCurrencyFor } from '../build/fx';
import { fixedGeneratedAt, resolveSettings } from '../config';
import { planBudget } from '../run/budget';
import { checkpointKey } from '../run/checkpoint';
import { connect } from '../run/connect';
import { portfolioPerformance } from '../run/enrich';
import { valuedHoldings } from '../run/answered';
import { EXIT, InterruptedError, UsageError } from '../run/exit-codes';
import type { PortfolioResults } from '../run/results';
import type { RunIo, RunOptions, RunOutcome } from '../run/run-job';
import { needsOf, skipped } from '../run/value-portfolios';
import { writeReport } from '../writers';
import { JOB_ATTEMPTS, QUEUE_NAME, bullConnection, jobId, jobPurpose, portfolioDigest, resultPurpose, type PortfolioJobData, type PortfolioJobResult, type SignedJob, type SignedResult } from './jobs';
import { QueueRuns, type RunRecord } from './run-record';
import { signedFailure } from './failure-reasons';
import { requeueLostJobs, type JobSpec } from './lost-jobs';
import { RedisJournal } from './redis-journal';
import { queueSecret } from './queue-secret';
import { QueueSigner } from './queue-signer';
import { storeRates } from './rates-store';
import { RelativeFolder } from './job-schema';
import { readPreviousRun } from '../build/previous';
import { NO_TELEMETRY } from '../run/telemetry';
import { consolidatedPast, type JobPast } from './job-past';

/**
 * `svc-report run … --queue`: the coordinating run. The same checks as a one-process run
 * (input, currency, the day-budget pre-check with the account's shared budget), then one BullMQ
 * job per portfolio that fits; `svc-report worker` processes value them and write their reports.
 * Progress comes from the workers' job progress events; when every portfolio has landed, this
 * run fetches the consolidated performance and writes the consolidated report.
 *
 * Everything this run writes to Redis is signed with the queue secret (queue-signer.ts): the
 * jobs, the journal, the generated_at it fixes; what it reads back is checked the same way.
 * A job names its run folder relative to the workers' own --out (`workerFolder`, default the
 * last part of --out) and carries the rates and previous reports as content, never a path.
 */
export async function runQueued(opts: RunOptions & { workerFolder?: string }, io: RunIo): Promise<RunOutcome> {
  const env = io.env ?? process.env;
  const signer = new QueueSigner(queueSecret(env, 'svc-report run --queue'));
  const log = (line: string) => io.progress.log(line);
  const settings = resolveSettings(opts, env);
  const { redisUrl, baseUrl } = settings.service;
  if (!redisUrl) throw new UsageError('--queue needs Redis: give --redis URL, SVC_REDIS_URL or redis_url in the config file');
  if (!baseUrl) throw new UsageError('--queue needs the service every worker shares: set SVC_BASE_URL, SVC_CLIENT_ID and SVC_CLIENT_SECRET (workers on other machines cannot reach an embedded sandbox)');
  const loaded = await readRunInputs(opts.files, { asOf: settings.asOf, currency: settings.currency, decimalMark: settings.decimalMark, ignoreColumns: settings.ignoreColumns });
  sayInputs(loaded, settings.asOf, log);
  const portfolios = loaded.portfolios;
  const currency = loaded.currency;
  const fxRates = settings.fxRates;
  const ratesSource = fxRates ? await readRatesSource(fxRates) : undefined;
  const fx = ratesSource?.table;
  checkReportingCurrency(currency, fx);
  requireCurrency(portfolios, currency, fx && ((code) => fx.covers(code)));
  const asked = serviceCurrencyFor(currency);
  const outDir = resolve(opts.out);
  await mkdir(outDir, { recursive: true });
  const folder = opts.workerFolder ?? basename(outDir);
  if (!RelativeFolder.safeParse(folder).success) throw new UsageError('--worker-folder must be a folder relative to the workers\' --out, without ".." (default: the last part of --out)');
  const previous = opts.previous ? await readPreviousRun(opts.previous) : undefined;

  const telemetry = io.telemetry ?? NO_TELEMETRY;
  const conn = await connect(settings.service, { asOf: settings.asOf, log, telemetry });
  const redis = await openRedis(redisUrl, { name: 'svc-report-run' });
  // Connections handed to BullMQ stay ours to close (it closes only those it makes).
  const connections = [bullConnection(redisUrl, 'svc-report-run-queue'), bullConnection(redisUrl, 'svc-report-run-events')];
  const queue = new Queue<SignedJob, SignedResult>(QUEUE_NAME, { connection: connections[0]! });
  const events = new QueueEvents(QUEUE_NAME, { connection: connections[1]! });
  try {
    const runKey = checkpointKey(portfolios, settings.asOf, currency, baseUrl);
    // This run's id: a --resume continues the input's run; otherwise a new one, and the jobs of the one it replaces are refused from now on.
    const runs = new QueueRuns(redis, signer);
    const run = await runs.begin({ runKey, folder, formats: settings.formats }, opts.resume === true);
    const ids = portfolios.map((p, i) => jobId(run.runId, p.name, i));
    if (run.replaced) for (const [i, p] of portfolios.entries()) await queue.remove(jobId(run.replaced, p.name, i)).catch(() => 0);
    const journal = new RedisJournal(redis, runKey, signer);
    if (!opts.resume) {
      // A fresh run of the same input: landed chunks are forgotten (as a one-process run discards its checkpoint).
      await journal.remove(portfolios.map((p) => p.name));
    }
    await journal.load(portfolios.map((p) => p.name));
    if (opts.resume) log('Resuming: chunks that already landed in Redis are not valued again.');
    sayRefused(journal.refused, 'in Redis', log);
    const genKey = `svc-report:journal:{${runKey}}:generated_at`;
    const generatedAt = fixedGeneratedAt(env) ?? (await runGeneratedAt(redis, genKey, signer, log));
    const fxRef = ratesSource && (await storeRates(redis, ratesSource.text, ratesSource.name));

    // The day-budget pre-check, with what the whole account has left (the shared gate's view after one cheap call).
    await conn.client.segments.list({ signal: io.signal });
    const states = new Map(portfolios.map((p) => [p.name, journal.portfolio(p.name)]));
    const decisions = planBudget(needsOf(portfolios, states), conn.client.rateLimitStatus(), portfolios.length > 1 && !journal.state.consolidated ? 2 : 0);
    const results = new Map<string, PortfolioResults>();
    const byJob = new Map<string, PortfolioInput>();
    const jobs: JobSpec<SignedJob>[] = [];
    portfolios.forEach((p, i) => {
      const d = decisions[i]!;
      telemetry.portfolio(undefined, d.fits ? 'queued' : 'failed');
      if (!d.fits) {
        log(d.message!);
        results.set(p.name, skipped(p, states.get(p.name)!, d.message!));
        return;
      }
      byJob.set(ids[i]!, p);
      const data: PortfolioJobData = {
        runKey,
        runId: run.runId,
        folder,
        portfolio: p,
        portfolioSha256: portfolioDigest(p),
        expiresAt: run.expiresAt,
        asOf: settings.asOf,
        currency,
        asked,
        fxRates: fxRef,
        previous: previous && { report: previous.byPortfolio.get(p.name) ?? null },
        formats: settings.formats,
        preparedBy: settings.preparedBy,
        brand: settings.brand && { firm: settings.brand.firmName, sha256: settings.brand.digest },
        validatedWarningPercent: settings.validatedWarningPercent,
        insurance: settings.insurance,
        allowUnknownIds: settings.allowUnknownIds,
        language: settings.language,
        csvHeaders: settings.csvHeaders,
        generatedAt,
        sandbox: conn.sandbox,
        ledger: loaded.ledgers.get(p.name),
      };
      jobs.push({ name: 'portfolio', data: signer.sign(jobPurpose(ids[i]!), data), opts: { jobId: ids[i]!, attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: 2000 } } });
    });

    // The run's signed record and the jobs it queues, before any job is: a worker executes only what is recorded here.
    const record: RunRecord = { runKey, folder, formats: settings.formats, expiresAt: run.expiresAt, status: 'open' };
    const registered = jobs.map((j) => ({ id: j.opts.jobId, portfolioSha256: j.data.d.portfolioSha256 }));
    const registerRun = () => runs.register(run.runId, record, registered);
    await registerRun();
    await events.waitUntilReady();
    const total = [...byJob.values()].reduce((n, p) => n + p.holdings.length, 0);
    const done = new Map<string, number>();
    const label = `${byJob.size} portfolio${byJob.size === 1 ? '' : 's'} on the queue`;
    const show = () => io.progress.update({ label, done: [...done.values()].reduce((a, b) => a + b, 0), total, requestsLeft: conn.client.rateLimitStatus().minuteRemaining });
    events.on('progress', ({ jobId: id, data }) => {
      const d = data as { done?: number };
      if (byJob.has(id) && typeof d.done === 'number') {
        if (!done.has(id)) telemetry.portfolio('queued', 'in_progress');
        done.set(id, d.done);
        show();
      }
    });
    // addBulk answers with the jobs as given, not as Redis holds them: a job already under an id (a resumed run's, or one
    // written by someone else) is read back, so its own data and result are what is checked (else every finished result
    // of a resumed run looked unverifiable and its portfolio was valued again).
    const added = await Promise.all((await queue.addBulk(jobs)).map(async (job) => (await queue.getJob(job.id!)) ?? job));
    for (const [i, job] of added.entries()) {
      // A job already under this id that this run did not sign (written into Redis by someone else) is replaced by the run's own.
      if (!signer.open(jobPurpose(job.id!), job.data)) {
        log(`A job in Redis under this run's id for "${byJob.get(job.id!)?.name ?? '?'}" was not signed with the queue secret: replaced by this run's own.`);
        await queue.remove(job.id!).catch(() => 0);
        added[i] = await queue.add(jobs[i]!.name as 'portfolio', jobs[i]!.data, jobs[i]!.opts);
      }
    }
    // A resumed run finds its earlier jobs: a failed one is tried again, a finished one's result is used once its MAC verifies (else the portfolio is valued again).
    for (const job of added) {
      // Retried on this run's say: the worker's record that it completed the job is lifted first (else a worker would end it with the recorded result, unexecuted).
      const state = await job.getState();
      if (state === 'failed') {
        await runs.allowAgain(run.runId, job.id!);
        await job.retry();
      } else if (state === 'completed' && !signer.open(resultPurpose(job.id!), ((await queue.getJob(job.id!)) ?? job).returnvalue)) {
        // Read again now that it is completed: a worker may have finished it since it was read above (its result was not there yet).
        log(`The finished job for "${byJob.get(job.id!)?.name ?? '?'}" has a result in Redis that does not verify: not used; its portfolio is valued again.`);
        await runs.allowAgain(run.runId, job.id!);
        await job.retry('completed');
      }
    }
    log(`${added.length} portfolio${added.length === 1 ? '' : 's'} queued; waiting for the workers (svc-report worker) to value them.`);
    show();

    const ended = new Set<string>();
    const lostJobs = requeueLostJobs(queue, jobs, (id) => !ended.has(id), log, registerRun);
    const idle = noticeIdleQueue(queue, [...byJob.keys()], () => done.size > 0 || ended.size > 0, log, (opts.workerWait ?? DEFAULT_WORKER_WAIT_S) * 1000);
    const outcomes = await waitAll(added, events, io.signal, ended, signer, redis).finally(() => {
      lostJobs.stop();
      idle.stop();
    });
    // Every job has ended: from now on a job of this run (one captured from Redis and added back) is refused.
    await runs.finish(run.runId);
    const files: string[] = [];
    let rowErrors = false;
    const leftOutSections: string[] = [];
    const sayLeftOut = (line: string) => {
      leftOutSections.push(line);
      log(line);
    };
    let retryable = 0;
    let servedBySandbox = conn.client.servedBySandbox;
    /** Each portfolio's past as its worker read it from the history database (the consolidated report's month-ends). */
    const pasts = new Map<string, JobPast>();
    for (const [id, p] of byJob) {
      const o = outcomes.get(id)!;
      telemetry.portfolio(done.has(id) ? 'in_progress' : 'queued', 'failed' in o ? 'failed' : 'done');
      if ('failed' in o) {
        // A refused job is not retried (it would be refused again): say what the worker said, not a count of attempts.
        // A reason no worker signed (anyone can write one into Redis) is not quoted.
        const message = !o.signed
          ? `Portfolio "${p.name}" was not valued: its job failed, and the reason Redis holds for it is not one a worker signed, so it is not quoted (the workers' logs say why); run the same command with --resume to try it again.`
          : o.failed.startsWith('refused: ')
          ? `Portfolio "${p.name}" was not valued: a worker refused its job (${o.failed.slice('refused: '.length)}); once the workers are set right, run the same command with --resume to try it again.`
          : `Portfolio "${p.name}" was not valued: its job failed ${JOB_ATTEMPTS} times (${o.failed}); run the same command with --resume to try it again.`;
        log(message);
        results.set(p.name, skipped(p, journal.portfolio(p.name), message));
        continue;
      }
      const r = o.result;
      sayRefused(r.journalRefused ?? [], 'in Redis (the worker valued them again)', log);
      for (const note of r.notes) log(`${p.name}: ${note}`);
      results.set(p.name, r.results);
      if (r.past) pasts.set(p.name, r.past);
      sectionsLeftOut(p.name, r.results).forEach(sayLeftOut);
      // The worker's own paths mean nothing here: its files are named in this run's --out (the same folder, seen from this machine).
      files.push(...r.files.map((f) => join(outDir, basename(f))));
      rowErrors ||= r.rowErrors;
      retryable += r.retryable;
      servedBySandbox ||= r.servedBySandbox;
    }

    const ctx = { asOf: settings.asOf, currency, generatedAt, sandbox: conn.sandbox || servedBySandbox, preparedBy: settings.preparedBy, brand: settings.brand, validatedWarningPercent: settings.validatedWarningPercent, insurance: settings.insurance, fx, limitsInForce: describeLimits(conn.client.rateLimitStatus()), previous, language: settings.language, csvHeaders: settings.csvHeaders };
    if (portfolios.length > 1) {
      if (!journal.state.consolidated) {
        const inAsked = inServiceCurrency(portfolios, asked, currency, fx);
        const valued = inAsked.flatMap((p) => valuedHoldings(p.holdings, results.get(p.name)!.valuations));
        journal.state.consolidated = { performance: await portfolioPerformance(conn.client, 'Consolidated', valued, { currency: asked, signal: io.signal }) };
        await journal.recordConsolidated();
      }
      leftOut('Consolidated', 'performance against benchmarks', journal.state.consolidated!.performance).forEach(sayLeftOut);
      const parts = await Promise.all(
        portfolios.map(async (p) => ({ input: p, results: results.get(p.name)!, past: await consolidatedPast(pasts.get(p.name), loaded.ledgers.get(p.name)!, { portfolio: p.name, asOf: settings.asOf, currency }, previous, log) })),
      );
      const written = await writeReport(buildConsolidatedReport(parts, journal.state.consolidated!.performance, ctx, log), outDir, settings.formats);
      files.push(...written.map((w) => w.path));
      // The portfolios' own files are the workers' to count (each process counts what it wrote).
      telemetry.filesWritten(written.map((w) => w.path));
    }
    const failedJobs = [...outcomes.values()].some((o) => 'failed' in o);
    const skippedAny = decisions.some((d) => !d.fits);
    if (retryable > 0 || failedJobs || skippedAny) {
      log(`Some holdings were not valued for a passing reason (budget, network or service): run the same command with --resume later to value only those (what landed is kept in Redis for 7 days).`);
    } else {
      await journal.remove(portfolios.map((p) => p.name));
      await redis.del(genKey);
      for (const id of byJob.keys()) await queue.remove(id).catch(() => 0);
    }
    const incomplete = rowErrors || failedJobs || leftOutSections.length > 0 || loaded.unreadable.length > 0 || [...results.values()].some((r) => r.valuations.some((v) => !v?.ok) || r.problems.length > 0) || portfolios.some((p) => p.problems.length > 0);
    return { exitCode: incomplete ? EXIT.partial : EXIT.ok, files, sectionsLeftOut: leftOutSections, ledgerRowsRefused: loaded.ledgerProblems.length };
  } catch (e) {
    if (io.signal.aborted) {
      throw new InterruptedError('Interrupted. The portfolios stay on the queue and the workers keep valuing them; run the same command again with --resume to collect them and write the consolidated report.');
    }
    throw e;
  } finally {
    io.progress.stop();
    await events.close();
    await queue.close();
    for (const c of connections) c.disconnect();
    redis.disconnect();
    await conn.close();
  }
}

/** A job's end: its verified result, or why it failed (`signed`: the reason is this run's own or one a worker signed, so it may be quoted). */
type JobOutcome = { result: PortfolioJobResult } | { failed: string; signed: boolean };

/** Every job's end (BullMQ's completed/failed events, through waitUntilFinished); Ctrl-C stops the waiting, not the jobs. A result whose MAC does not verify counts as failed. */
async function waitAll(jobs: readonly Job<SignedJob, SignedResult>[], events: QueueEvents, signal: AbortSignal, ended: Set<string>, signer: QueueSigner, redis: Redis): Promise<Map<string, JobOutcome>> {
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const ends = jobs.map(async (job): Promise<[string, JobOutcome]> => {
    try {
      const stored: unknown = await job.waitUntilFinished(events);
      const opened = signer.open(resultPurpose(job.id!), stored);
      return [job.id!, opened ? { result: opened.data as PortfolioJobResult } : { failed: 'refused: its result in Redis does not verify', signed: true }];
    } catch (e) {
      const reason = (e as Error).message;
      return [job.id!, { failed: reason, signed: await signedFailure(redis, signer, job.id!, reason) }];
    } finally {
      ended.add(job.id!);
    }
  });
  return new Map(await Promise.race([Promise.all(ends), aborted]));
}

/** The journal entries left out, said once: which, and that those holdings are valued again. */
function sayRefused(refused: readonly string[], where: string, log: (line: string) => void): void {
  if (refused.length === 0) return;
  const shown = refused.slice(0, 5).join('; ') + (refused.length > 5 ? `; and ${refused.length - 5} more` : '');
  log(`Refused ${refused.length} journal entr${refused.length === 1 ? 'y' : 'ies'} ${where} whose MAC or data does not check (${shown}): not used; those holdings are valued again.`);
}

/**
 * generated_at, fixed once per run in Redis (signed), so a resumed run's reports carry the same
 * one; a value there that does not verify is replaced, and said.
 */
async function runGeneratedAt(redis: Redis, key: string, signer: QueueSigner, log: (line: string) => void): Promise<string> {
  const purpose = `generated_at:${key}`;
  const ttl = 7 * 24 * 3600;
  await redis.set(key, JSON.stringify(signer.sign(purpose, new Date().toISOString())), 'EX', ttl, 'NX');
  const stored = await redis.get(key);
  let opened: { data: unknown } | undefined;
  try {
    opened = stored === null ? undefined : signer.open(purpose, JSON.parse(stored));
  } catch {
    opened = undefined;
  }
  if (opened && typeof opened.data === 'string' && !Number.isNaN(Date.parse(opened.data))) return opened.data;
  log("The run's generated_at in Redis was not signed with the queue secret: replaced.");
  const now = new Date().toISOString();
  await redis.set(key, JSON.stringify(signer.sign(purpose, now)), 'EX', ttl);
  return now;
}
