import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import type { Spawned } from '../../fixtures/spawned';
import { QUEUE_NAME, bullConnection, jobPurpose, portfolioDigest, type SignedJob } from '../../reports/queue/jobs';
import { QueueSigner } from '../../reports/queue/queue-signer';
import { QueueRuns, RUN_LIFETIME_MS } from '../../reports/queue/run-record';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { QUEUE_SECRET, jsonReports, killAll, svcReport as spawnReport, valuedItems } from './support/processes';

/**
 * Issue 35, "a signed job valid once, for one run", against a real redis-server and real
 * `svc-report worker` and `run --queue` processes. A job captured from Redis while its run went
 * on and added back later is refused, unexecuted, with the worker's log naming why: after the
 * run and its approval (the approved PDFs unchanged byte for byte, also when Redis's records of
 * the run are rolled back to a captured copy: the folder's approvals refuse it), during a later
 * run of the same input (the old folder untouched, the new run succeeds), expired, or edited.
 * A resumed run uses the finished jobs' untouched results (nothing valued again), and a failure
 * reason written into Redis by someone without the secret is not quoted.
 */

const MINUTE_MS = 1000;
const AS_OF = '2026-10-30';
const REVIEWER = 'Ann Reviewer <ann@meridian.example>';
const dir = mkdtempSync(join(tmpdir(), 'svc-queue-replay-'));
const logFile = join(dir, 'requests.jsonl');
const secret = `replay-${Date.now()}-service`;
const root = join(dir, 'root');
const holdings = join(dir, 'holdings.csv');
const signer = new QueueSigner(QUEUE_SECRET);
let sandbox: RunningSandbox;
let redis: RedisProcess;
let queue: Queue;
let events: QueueEvents;
let connections: ReturnType<typeof bullConnection>[];
let worker: Spawned;
/** Every job a worker took, as Redis held it then: what an attacker reading Redis captures. */
const captured = new Map<string, { data: SignedJob; runRecord: string | null }>();

const svcReport = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: 'replay-account', SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', ...env });
const runArgs = (folder: string, ...more: string[]) => ['run', holdings, '--out', join(root, folder), '--queue', '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', AS_OF, ...more];

/** Every file under a folder, by name, with the SHA-256 of its bytes. */
function hashes(folder: string): Record<string, string> {
  return Object.fromEntries(readdirSync(folder).map((f) => [f, createHash('sha256').update(readFileSync(join(folder, f))).digest('hex')]));
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Adds a job as anyone who can write to Redis can, and waits for its end: its failure reason. */
async function replay(id: string, data: unknown): Promise<string> {
  await queue.remove(id).catch(() => 0);
  await queue.add('portfolio', data, { jobId: id, attempts: 5 });
  const job = await until(async () => {
    const j = await queue.getJob(id);
    return j?.finishedOn ? j : undefined;
  });
  expect(await job.isFailed(), id).toBe(true);
  // Refused at once, not retried.
  expect(job.attemptsMade).toBe(1);
  return job.failedReason;
}

/** The captured jobs of the run that wrote into `folder`. */
const capturedFor = (folder: string) => [...captured.entries()].filter(([, c]) => c.data.d.folder === folder);

beforeAll(async () => {
  const accounts = ['replay-account', 'forge-account'].map((client_id) => ({ client_id, client_secret: secret, tier: 'pro' as const, per_minute: 100_000, per_day: 1_000_000 }));
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, logFile, accounts });
  redis = await startRedis();
  connections = [bullConnection(redis.url, 'replay-test'), bullConnection(redis.url, 'replay-test-events')];
  queue = new Queue(QUEUE_NAME, { connection: connections[0]! });
  events = new QueueEvents(QUEUE_NAME, { connection: connections[1]! });
  events.on('active', ({ jobId }) => {
    void (async () => {
      const job = await queue.getJob(jobId);
      const data = job?.data as SignedJob | undefined;
      if (!data?.d?.runId || captured.has(jobId)) return;
      captured.set(jobId, { data, runRecord: await connections[0]!.get(`svc-report:run:{${data.d.runId}}`) });
    })();
  });
  await events.waitUntilReady();
  mkdirSync(root);
  writeFileSync(holdings, holdingsCsv(2, 3));
}, 120_000);

afterAll(async () => {
  killAll();
  await events?.close();
  await queue?.close();
  for (const c of connections ?? []) c.disconnect();
  await sandbox?.close();
  await redis?.stop();
});

describe('the runs of the queue in Redis (QueueRuns)', () => {
  it('a --resume continues its run while it has time left and the same folder and formats; anything else is a new run, and the one it replaces is finished', async () => {
    const runs = new QueueRuns(connections[0]!, signer);
    const spec = { runKey: 'b'.repeat(64), folder: 'runs-unit', formats: ['json' as const] };
    // Redis expires the records at their run's end: a start of now keeps them while the test reads them.
    const now = Date.now();
    const first = await runs.begin(spec, false, now);
    expect(first.runId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.expiresAt).toBe(new Date(now + RUN_LIFETIME_MS).toISOString());
    expect(first.replaced).toBeUndefined();
    expect((await runs.read(first.runId))?.status).toBe('open');
    // Resumed the same day: the same run.
    expect((await runs.begin(spec, true, now + 3600_000)).runId).toBe(first.runId);
    // Another folder or other formats, or near its end of life: a new run; the first, still open, is finished.
    const otherFolder = await runs.begin({ ...spec, folder: 'elsewhere' }, true, now);
    expect(otherFolder.runId).not.toBe(first.runId);
    expect(otherFolder.replaced).toBe(first.runId);
    expect((await runs.read(first.runId))?.status).toBe('finished');
    const late = await runs.begin({ ...spec, folder: 'elsewhere' }, true, now + RUN_LIFETIME_MS - 3600_000);
    expect(late.runId).not.toBe(otherFolder.runId);
    // A fresh run (no --resume) is always a new one.
    expect((await runs.begin(spec, false, now)).runId).not.toBe(late.runId);
    // Marks and records are signed: one written without the secret is as if absent.
    await connections[0]!.hset(`svc-report:run:{${late.runId}}:done`, 'some-job', JSON.stringify({ d: { at: '2026-10-31T06:00:00Z', result: 'forged' }, m: '0'.repeat(64) }));
    expect(await runs.completed(late.runId, 'some-job')).toBeUndefined();
    await runs.markCompleted(late.runId, 'some-job', late.expiresAt, { d: 'its result', m: 'its MAC' }, '2026-10-31T07:00:00.000Z');
    expect(await runs.completed(late.runId, 'some-job')).toEqual({ at: '2026-10-31T07:00:00.000Z', result: { d: 'its result', m: 'its MAC' } });
    expect(await runs.completed(late.runId, 'another-job')).toBeUndefined();
    await runs.allowAgain(late.runId, 'some-job');
    expect(await runs.completed(late.runId, 'some-job')).toBeUndefined();
    await connections[0]!.set(`svc-report:run:{${'c'.repeat(32)}}`, JSON.stringify({ d: { ...spec, expiresAt: late.expiresAt, status: 'open' }, m: 'f'.repeat(64) }));
    expect(await runs.read('c'.repeat(32))).toBeUndefined();
  });
});

describe('a signed job is valid once, for one run', () => {
  it('a failure reason written into Redis without the secret is not quoted, in the output nor in the consolidated report', async () => {
    // Someone who can reach Redis takes the run's jobs and fails them with a reason of their own.
    const forgedReason = 'refused: the service account is locked, call +1 555 0100 to re-authorise';
    const forgerConnection = bullConnection(redis.url, 'forger');
    const forger = new Worker(
      QUEUE_NAME,
      async () => {
        throw new UnrecoverableError(forgedReason);
      },
      { connection: forgerConnection },
    );
    try {
      const run = svcReport([...runArgs('forged-reason'), '--formats', 'json'], { SVC_CLIENT_ID: 'forge-account' });
      expect(await run.exit, run.output).toBe(3);
      expect(run.output).toMatch(/Portfolio "Client 0001" was not valued: its job failed, and the reason Redis holds for it is not one a worker signed, so it is not quoted \(the workers' logs say why\)/);
      expect(run.output).not.toContain('555 0100');
      const consolidated = readdirSync(join(root, 'forged-reason')).filter((f) => f.endsWith('.json') && f !== 'manifest.json');
      expect(consolidated.length).toBeGreaterThan(0);
      for (const f of consolidated) {
        const text = readFileSync(join(root, 'forged-reason', f), 'utf8');
        expect(text).toContain('not one a worker signed');
        expect(text).not.toContain('555 0100');
      }
    } finally {
      await forger.close();
      forgerConnection.disconnect();
    }
  }, 120_000);

  it('replayed after the run was approved: refused (its run has finished; and with the run records rolled back, the folder is approved), the approved files unchanged byte for byte', async () => {
    worker = svcReport(['worker', '--out', root, '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--lock-ms', '2000']);
    await worker.said(/Worker ready/);
    const run = svcReport([...runArgs('2026-10'), '--formats', 'json,pdf']);
    expect(await run.exit, run.output + '\n--- worker:\n' + worker.output).toBe(0);
    const approve = svcReport(['approve', join(root, '2026-10'), '--portfolio', 'Client 0001', '--by', REVIEWER, '--db', 'off', '--allow-sandbox']);
    expect(await approve.exit, approve.output).toBe(0);
    const approved = hashes(join(root, '2026-10'));
    expect(Object.keys(approved).filter((f) => f.endsWith('.pdf'))).toHaveLength(3);
    const jobs = capturedFor('2026-10');
    expect(jobs).toHaveLength(2);
    const [id, { data, runRecord }] = jobs[0]!;

    // The job as captured, added back under its id once the run had ended.
    expect(await replay(id, data)).toBe('refused: its run has finished (a job is executed only while its run is open)');
    expect(worker.output).toContain(`Refused job ${id}: its run has finished (a job is executed only while its run is open); not executed`);

    // Redis rolled back as well: the run's record as captured while it was open, the worker's completion marks gone.
    await connections[0]!.set(`svc-report:run:{${data.d.runId}}`, runRecord!);
    await connections[0]!.del(`svc-report:run:{${data.d.runId}}:done`);
    expect(await replay(id, data)).toBe("refused: the run folder's manifest records 1 approved report: a signed-off folder is never written into");
    expect(worker.output).toContain(`Refused job ${id}: the run folder's manifest records 1 approved report`);
    expect(hashes(join(root, '2026-10'))).toEqual(approved);
  }, 180_000);

  it('replayed during a later run of the same input: refused, the old folder untouched, the new run succeeds', async () => {
    const before = hashes(join(root, '2026-10'));
    const [id, { data }] = capturedFor('2026-10')[1]!;
    const later = svcReport([...runArgs('2026-10-again'), '--formats', 'json,pdf']);
    await later.said(/portfolios? queued; waiting/);
    expect(await replay(id, data)).toBe('refused: its run has finished (a job is executed only while its run is open)');
    expect(await later.exit, later.output).toBe(0);
    expect(jsonReports(join(root, '2026-10-again'))).toEqual(jsonReports(join(root, '2026-10')));
    expect(hashes(join(root, '2026-10'))).toEqual(before);
  }, 180_000);

  it('an expired job, and a job whose folder or formats were edited, are refused unexecuted', async () => {
    const before = hashes(join(root, '2026-10'));
    const [id, { data, runRecord }] = capturedFor('2026-10-again')[0]!;
    const valued = valuedItems(logFile, 'replay-account');
    // Signed (as by a secret holder) but past its expiry.
    const expired = signer.sign(jobPurpose(id), { ...data.d, expiresAt: '2020-01-01T00:00:00.000Z' });
    expect(await replay(id, expired)).toMatch(/^refused: the job expired at 2020-01-01T00:00:00\.000Z \(a job is valid for 48 hours from its run's start\)/);
    // Captured and edited: the MAC covers the whole job.
    expect(await replay(id, { ...data, d: { ...data.d, folder: '2026-10' } })).toBe('refused: job signature does not verify');
    expect(await replay(id, { ...data, d: { ...data.d, formats: ['pdf'] } })).toBe('refused: job signature does not verify');
    // Signed again with another folder and formats: not what its run recorded.
    expect(await replay(id, signer.sign(jobPurpose(id), { ...data.d, folder: '2026-10', formats: ['pdf'] }))).toBe("refused: the job differs from its run's record in: folder, formats");
    // Signed again with another portfolio: its digest must be its own, and the one its run recorded for the job (the run's record rolled back to open, so that check is reached).
    const recordKey = `svc-report:run:{${data.d.runId}}`;
    const finished = await connections[0]!.get(recordKey);
    await connections[0]!.set(recordKey, runRecord!);
    const other = { ...data.d.portfolio, holdings: data.d.portfolio.holdings.slice(1) };
    expect(await replay(id, signer.sign(jobPurpose(id), { ...data.d, portfolio: other }))).toBe("refused: job data portfolioSha256: not the portfolio's content digest");
    expect(await replay(id, signer.sign(jobPurpose(id), { ...data.d, portfolio: other, portfolioSha256: portfolioDigest(other) }))).toBe('refused: its portfolio is not the one its run queued (the content digest differs)');
    await connections[0]!.set(recordKey, finished!);
    expect(worker.output).toContain(`Refused job ${id}: the job expired at 2020-01-01`);
    expect(worker.output).toContain(`Refused job ${id}: job signature does not verify; not executed`);
    expect(worker.output).toContain(`Refused job ${id}: the job differs from its run's record in: folder, formats; not executed`);
    expect(valuedItems(logFile, 'replay-account')).toBe(valued);
    expect(hashes(join(root, '2026-10'))).toEqual(before);
  }, 120_000);

  it('a finished job added back while its run is open is not executed again; --resume uses the untouched results: nothing valued again', async () => {
    // The run interrupted before any worker took its jobs; the worker then finishes them with no run waiting.
    await queue.pause();
    const first = svcReport([...runArgs('resumed'), '--formats', 'json']);
    await first.said(/portfolios? queued; waiting/);
    first.child.kill('SIGINT');
    expect(await first.exit).toBe(130);
    await queue.resume();
    await until(async () => (capturedFor('resumed').length === 2 && (await Promise.all(capturedFor('resumed').map(([id]) => queue.getJobState(id)))).every((s) => s === 'completed') ? true : undefined));
    const valued = valuedItems(logFile, 'replay-account');
    const valuing = worker.output.match(/Valuing "/g)!.length;
    // While the run is open, a finished job captured and added back (its completed entry removed first): not executed again.
    const written = hashes(join(root, 'resumed'));
    const [id, { data }] = capturedFor('resumed')[0]!;
    const stored = (await queue.getJob(id))!.returnvalue as unknown;
    await queue.remove(id);
    await queue.add('portfolio', data, { jobId: id, attempts: 5 });
    const again = await until(async () => {
      const j = await queue.getJob(id);
      return j?.finishedOn ? j : undefined;
    });
    expect(await again.isCompleted()).toBe(true);
    expect(again.returnvalue).toEqual(stored);
    expect(worker.output).toContain(`Job ${id} was already executed for this run (completed at `);
    expect(hashes(join(root, 'resumed'))).toEqual(written);

    const resumed = svcReport([...runArgs('resumed'), '--formats', 'json', '--resume']);
    expect(await resumed.exit, resumed.output).toBe(0);
    expect(resumed.output).not.toMatch(/does not verify/);
    expect(worker.output.match(/Valuing "/g)!.length).toBe(valuing);
    expect(valuedItems(logFile, 'replay-account')).toBe(valued);
    // Both portfolios' reports and the consolidated one.
    expect(Object.keys(jsonReports(join(root, 'resumed')))).toHaveLength(3);
  }, 120_000);
});
