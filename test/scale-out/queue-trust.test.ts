import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { ROOT as REPO } from '../../fixtures/commands';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { QUEUE_NAME, bullConnection, jobPurpose, portfolioDigest, type SignedJob } from '../../reports/queue/jobs';
import { QueueSigner } from '../../reports/queue/queue-signer';
import { QueueRuns } from '../../reports/queue/run-record';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { QUEUE_SECRET, jsonReports, killAll, svcReport as spawnReport, valuedItems } from './support/processes';

/**
 * Issue 29, the queue's trust boundary: jobs and journal entries written straight into a real
 * Redis, as anyone who can reach it could, against real `svc-report worker` processes. A job
 * without the coordinating run's MAC is refused unexecuted; so is a signed job naming a folder
 * outside the worker's --out (absolute, "..", a link out), a path as its rates or previous
 * folder, or data the CLI's input rules refuse. Nothing is written outside --out, and no file's
 * content reaches a failure reason or the worker's log. A tampered journal entry is not used:
 * the report equals a clean run's.
 */

const MINUTE_MS = 1000;
const AS_OF = '2026-10-30';
const dir = mkdtempSync(join(tmpdir(), 'svc-queue-trust-'));
const logFile = join(dir, 'requests.jsonl');
const secret = `trust-${Date.now()}-service`;
const root = join(dir, 'root');
const outside = join(dir, 'outside');
const signer = new QueueSigner(QUEUE_SECRET);
/** Far enough ahead for the test's jobs (a worker refuses a job past its expiry). */
const EXPIRES_AT = new Date(Date.now() + 24 * 3600_000).toISOString();
let sandbox: RunningSandbox;
let redis: RedisProcess;
let queue: Queue;
let connection: ReturnType<typeof bullConnection>;

const svcReport = (args: string[], clientId: string, env: NodeJS.ProcessEnv = {}) =>
  spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: clientId, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', ...env });
const workerArgs = () => ['worker', '--out', root, '--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--lock-ms', '2000'];

/** Every file under a folder with its content: what "nothing written" is checked against. */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path] = entry.isFile() ? readFileSync(path, 'utf8') : entry.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  const accounts = ['forged-account', 'clean-account', 'tamper-account', 'content-account', 'result-account'].map((client_id) => ({ client_id, client_secret: secret, tier: 'pro' as const, per_minute: 100_000, per_day: 1_000_000 }));
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, logFile, accounts });
  redis = await startRedis();
  connection = bullConnection(redis.url, 'queue-trust-test');
  queue = new Queue(QUEUE_NAME, { connection });
  mkdirSync(root);
  mkdirSync(outside);
  // An existing client report outside the worker's folder, and a link inside it that leads there.
  writeFileSync(join(outside, 'client-0001-2026-09-30.json'), '{"the": "September report"}');
  symlinkSync(outside, join(root, 'escape'));
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(1, 20));
  // The reference: the same month-end in one process, no queue.
  const clean = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'clean'), '--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', AS_OF, '--formats', 'json'], 'clean-account');
  expect(await clean.exit, clean.output).toBe(0);
}, 120_000);

afterAll(async () => {
  killAll();
  await queue?.close();
  connection?.disconnect();
  await sandbox?.close();
  await redis?.stop();
});

/** A job's data as a coordinating run would write it: valid in every field. */
function validData(folder: string, runId = 'd'.repeat(32)): Record<string, unknown> {
  const holding = { portfolio: 'Forged', source: { file: 'forged.csv', row: 2 }, segment: 'watches', assetId: 'SVC-WAT-ROLEX-126610LN-2021', brand: 'Rolex', model: 'Submariner', quantity: 1, purchasePrice: 9000, purchaseDate: '2021-03-01' };
  const portfolio = { name: 'Forged', files: ['forged.csv'], holdings: [holding], problems: [] };
  return {
    runKey: 'a'.repeat(64),
    runId,
    folder,
    portfolio,
    portfolioSha256: portfolioDigest(portfolio),
    expiresAt: EXPIRES_AT,
    asOf: AS_OF,
    currency: 'USD',
    asked: 'USD',
    formats: ['json'],
    generatedAt: '2026-10-30T06:00:00.000Z',
    sandbox: true,
  };
}

describe('svc-report worker and jobs written straight into Redis', () => {
  it('needs SVC_QUEUE_SECRET (exit 2, the value never echoed), --out, and a --worker-folder inside', async () => {
    const none = svcReport(workerArgs(), 'forged-account', { SVC_QUEUE_SECRET: '' });
    expect(await none.exit).toBe(2);
    expect(none.output).toMatch(/svc-report worker needs SVC_QUEUE_SECRET/);
    const short = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'short'), '--queue', '--redis', redis.url, '--as-of', AS_OF], 'forged-account', { SVC_QUEUE_SECRET: 'hunter2-shh' });
    expect(await short.exit).toBe(2);
    expect(short.output).toMatch(/SVC_QUEUE_SECRET is shorter than 16 characters/);
    expect(short.output).not.toContain('hunter2-shh');
    const climbing = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'climbing'), '--queue', '--worker-folder', '../elsewhere', '--redis', redis.url, '--as-of', AS_OF], 'forged-account');
    expect(await climbing.exit).toBe(2);
    expect(climbing.output).toMatch(/--worker-folder must be a folder relative to the workers' --out, without "\.\."/);
    const noOut = svcReport(workerArgs().filter((a, i, all) => a !== '--out' && all[i - 1] !== '--out'), 'forged-account');
    expect(await noOut.exit).toBe(2);
    expect(noOut.output).toMatch(/required option '--out <root>'/);
  }, 60_000);

  it('refuses, unexecuted, every job without a valid MAC or with a path, a folder outside or data the input rules refuse; writes nothing outside --out; quotes no file', async () => {
    const passwd = readFileSync('/etc/passwd', 'utf8');
    expect(passwd).toContain('root:');
    const passwdSha = createHash('sha256').update(passwd).digest('hex');
    // As if a coordinating run had been given /etc/passwd as its rates: its text stored under its hash.
    await connection.set(`svc-report:rates:${passwdSha}`, passwd);
    const relative = `forged-relative-${process.pid}`;
    const signed = (id: string, data: unknown): SignedJob => signer.sign(jobPurpose(id), data) as SignedJob;
    // Jobs that pass every check of the job itself reach the worker's checks of the disk and of Redis only when their run is recorded open: as a leaked secret could record it.
    const runs = new QueueRuns(connection, signer);
    const inOpenRun = async (id: string, data: Record<string, unknown>): Promise<SignedJob> => {
      const runId = createHash('sha256').update(id).digest('hex').slice(0, 32);
      const d: Record<string, unknown> = { ...data, runId };
      await runs.register(runId, { runKey: d.runKey as string, folder: d.folder as string, formats: ['json'], expiresAt: EXPIRES_AT, status: 'open' }, [{ id, portfolioSha256: d.portfolioSha256 as string }]);
      return signed(id, d);
    };
    const forged: { id: string; data: unknown; reason: RegExp }[] = [
      // No MAC at all: the job of before issue 29, naming /etc/passwd as rates, /etc as previous and an outside folder.
      { id: 'unsigned', data: { ...validData(relative), fxRates: '/etc/passwd', previous: '/etc', outDir: outside }, reason: /^refused: job signature does not verify$/ },
      { id: 'unsigned-relative', data: { d: validData(relative), m: '0'.repeat(64) }, reason: /^refused: job signature does not verify$/ },
      { id: 'other-secret', data: new QueueSigner('not-the-firms-queue-secret').sign(jobPurpose('other-secret'), validData('../outside')), reason: /^refused: job signature does not verify$/ },
      { id: 'absolute-unsigned', data: { d: validData(outside), m: 'f'.repeat(64) }, reason: /^refused: job signature does not verify$/ },
      // A valid MAC for another job id, copied here.
      { id: 'moved', data: signer.sign(jobPurpose('elsewhere'), validData('moved')), reason: /^refused: job signature does not verify$/ },
      // Signed (a leaked secret, or a coordinator's bug): the data itself is still checked.
      { id: 'signed-dotdot', data: signed('signed-dotdot', validData('../outside')), reason: /^refused: job data folder: a folder inside the worker's --out: "\.\." is not allowed$/ },
      { id: 'signed-dotdot-deep', data: signed('signed-dotdot-deep', validData('run/../../outside')), reason: /^refused: job data folder: .*"\.\." is not allowed$/ },
      { id: 'signed-absolute', data: signed('signed-absolute', validData(outside)), reason: /^refused: job data folder: a folder relative to the worker's --out, not an absolute path$/ },
      { id: 'signed-link', data: await inOpenRun('signed-link', validData('escape/run')), reason: /^refused: the job's folder leads outside the worker's --out \(through a link\)$/ },
      { id: 'signed-link-itself', data: await inOpenRun('signed-link-itself', validData('escape')), reason: /^refused: the job's folder leads outside the worker's --out \(through a link\)$/ },
      { id: 'signed-rates-path', data: signed('signed-rates-path', { ...validData(relative), fxRates: '/etc/passwd' }), reason: /^refused: job data fxRates: .*expected object/ },
      { id: 'signed-previous-path', data: signed('signed-previous-path', { ...validData(relative), previous: '/etc' }), reason: /^refused: job data previous: .*expected object/ },
      { id: 'signed-out-dir', data: signed('signed-out-dir', { ...validData(relative), outDir: outside }), reason: /^refused: job data \(the whole job\): Unrecognized key: "outDir"$/ },
      { id: 'signed-passwd-rates', data: await inOpenRun('signed-passwd-rates', { ...validData(relative), fxRates: { sha256: passwdSha, source: 'passwd' } }), reason: /^refused: the exchange rates the job names do not parse$/ },
      { id: 'signed-holdings', data: signed('signed-holdings', { ...validData(relative), portfolio: { name: 'Forged', files: [], holdings: 'all of them', problems: [] } }), reason: /^refused: job data portfolio\.holdings: .*expected array/ },
      { id: 'signed-script', data: signed('signed-script', { ...validData(relative), generatedAt: '<script>alert(1)</script>' }), reason: /^refused: job data generatedAt: Invalid ISO datetime$/ },
      // Valid in every field, signed, but of no run the coordinator recorded (issue 35).
      { id: 'signed-no-run', data: signed('signed-no-run', validData(relative)), reason: /^refused: its run is unknown to the coordinator/ },
    ];
    const before = snapshot(outside);
    const worker = svcReport(workerArgs(), 'forged-account');
    await worker.said(/Worker ready/);
    for (const f of forged) await queue.add('portfolio', f.data, { jobId: f.id, attempts: 5 });

    const reasons = new Map<string, string>();
    // Stopped however the checks below end: a worker left running would take the next test's jobs.
    onTestFinished(async () => {
      worker.child.kill('SIGTERM');
      await worker.exit;
    });
    for (const f of forged) {
      // finishedOn is written with the final failure (and its reason), in one step.
      const job = await until(async () => {
        const j = await queue.getJob(f.id);
        return j?.finishedOn ? j : undefined;
      });
      expect(await job.isFailed(), f.id).toBe(true);
      reasons.set(f.id, job.failedReason);
      expect(job.failedReason, f.id).toMatch(f.reason);
      // Refused at once, not retried: a MAC that does not verify will not verify next time.
      expect(job.attemptsMade, f.id).toBe(1);
      expect(worker.output).toContain(`Refused job ${f.id}: ${job.failedReason.replace(/^refused: /, '')}; not executed`);
    }
    worker.child.kill('SIGTERM');
    await worker.exit;

    // Nothing executed: no call spent, nothing written outside --out (nor inside it), the September report untouched.
    expect(valuedItems(logFile, 'forged-account')).toBe(0);
    expect(worker.output).not.toMatch(/Valuing "/);
    expect(snapshot(outside)).toEqual(before);
    expect(readdirSync(root)).toEqual(['escape']);
    expect(existsSync(join(REPO, relative))).toBe(false);
    expect(existsSync(join(process.cwd(), relative))).toBe(false);
    // No file's content in any reason stored in Redis or in the worker's log.
    for (const [id, reason] of reasons) expect(reason, id).not.toContain('root:');
    expect(worker.output).not.toContain('root:');
    expect(worker.output).not.toContain('<script>');
  }, 120_000);

  it('a journal entry in Redis tampered with, unsigned or moved to another holding is not used: valued again, said, the report equals a clean run', async () => {
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', AS_OF, '--formats', 'json'];

    // --resume: the run keeps what is in the journal (as a resumed month-end does) instead of clearing it.
    const run = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(root, 'tampered'), '--queue', '--redis', redis.url, '--resume', ...common], 'tamper-account');
    // With no worker yet, the run's job waits in Redis: its run key tells where the journal is.
    const job = await until(async () => (await queue.getWaiting()).find((j) => (j.data as SignedJob).d?.folder === 'tampered'));
    const { runKey, portfolio } = (job.data as SignedJob).d;
    const key = `svc-report:journal:{${runKey}}:p:${Buffer.from(portfolio.name).toString('base64url')}`;
    const purpose = (field: string) => `journal:${runKey}:${Buffer.from(portfolio.name).toString('base64url')}:${field}`;
    const valuation = { ok: true, low: 9000, mid: 10000, high: 11000, currency: 'USD', confidence: 0.9, service_score: 80, momentum: 'neutral', market_validated: true };
    // A signed entry whose value was then multiplied by 100; one with no MAC; a signed one copied to another holding.
    const tampered = signer.sign(purpose('v:0'), valuation);
    tampered.d = { ...valuation, mid: valuation.mid * 100 };
    await connection.hset(key, 'v:0', JSON.stringify(tampered), 'v:1', JSON.stringify(valuation), 'v:2', JSON.stringify(signer.sign(purpose('v:5'), valuation)));

    const worker = svcReport(workerArgs(), 'tamper-account');
    onTestFinished(() => void worker.child.kill('SIGTERM'));
    expect(await run.exit, run.output).toBe(0);
    expect(worker.output).toMatch(/refused a journal entry in Redis \("Client 0001" holding 1's valuation\): its MAC or data does not check; valued again/);
    expect(run.output).toMatch(/Refused 3 journal entries in Redis \(the worker valued them again\) whose MAC or data does not check \("Client 0001" holding 1's valuation; "Client 0001" holding 2's valuation; "Client 0001" holding 3's valuation\)/);
    expect(jsonReports(join(root, 'tampered'))).toEqual(jsonReports(join(dir, 'clean')));
    // Every holding valued by the service: none taken from the refused entries.
    expect(valuedItems(logFile, 'tamper-account')).toBe(20);
    worker.child.kill('SIGTERM');
    await worker.exit;
  }, 120_000);

  it('a signed run with --fx-rates, --currency CHF and --previous: the workers get rates and previous reports as content, reports equal a one-process run', async () => {
    const rates = join(REPO, 'examples', 'fx-rates-ILLUSTRATIVE.csv');
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--formats', 'json', '--fx-rates', rates, '--currency', 'CHF'];
    const september = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'september'), '--as-of', '2026-09-30', ...common], 'content-account');
    expect(await september.exit, september.output).toBe(0);
    const october = ['--as-of', AS_OF, '--previous', join(dir, 'september'), ...common];
    const single = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(dir, 'october-single'), ...october], 'content-account');
    expect(await single.exit, single.output).toBe(0);
    const worker = svcReport(workerArgs(), 'content-account');
    onTestFinished(() => void worker.child.kill('SIGTERM'));
    await worker.said(/Worker ready/);
    // The workers' folder is the run's by a relative name of its own choosing (--worker-folder).
    const queued = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(root, 'clients', '2026-10'), '--worker-folder', 'clients/2026-10', '--queue', '--redis', redis.url, ...october], 'content-account');
    expect(await queued.exit, queued.output).toBe(0);
    const reports = jsonReports(join(root, 'clients', '2026-10'));
    expect(reports).toEqual(jsonReports(join(dir, 'october-single')));
    const report = JSON.parse(Object.values(reports)[0]!) as { currency: string; summary: { month_on_month: { previous_as_of: string } | null } };
    expect(report.currency).toBe('CHF');
    expect(report.summary.month_on_month?.previous_as_of).toBe('2026-09-30');
    worker.child.kill('SIGTERM');
    await worker.exit;
  }, 180_000);

  it("a finished job's result edited in Redis: the resumed run does not use it, has the portfolio valued again, and its report equals a clean run's", async () => {
    const common = ['--tier', 'pro', '--minute-ms', String(MINUTE_MS), '--as-of', AS_OF, '--formats', 'json'];
    const runArgs = ['run', join(dir, 'holdings.csv'), '--out', join(root, 'result'), '--queue', '--redis', redis.url, ...common];
    // Queued with no worker, then interrupted: the job stays; a worker then finishes it with no run waiting.
    const first = svcReport(runArgs, 'result-account');
    const job = await until(async () => (await queue.getWaiting()).find((j) => (j.data as SignedJob).d?.folder === 'result'));
    first.child.kill('SIGINT');
    expect(await first.exit).toBe(130);
    const worker = svcReport(workerArgs(), 'result-account');
    onTestFinished(() => void worker.child.kill('SIGTERM'));
    await until(async () => ((await queue.getJob(job.id!))?.finishedOn ? true : undefined));
    // Its stored result (signed by the worker) edited: the run would report row errors (exit 3) if it believed it.
    const stored = JSON.parse((await connection.hget(`bull:${QUEUE_NAME}:${job.id}`, 'returnvalue'))!) as { d: { rowErrors: boolean } };
    stored.d.rowErrors = true;
    await connection.hset(`bull:${QUEUE_NAME}:${job.id}`, 'returnvalue', JSON.stringify(stored));
    const valuedBefore = valuedItems(logFile, 'result-account');

    const resumed = svcReport([...runArgs, '--resume'], 'result-account');
    expect(await resumed.exit, resumed.output).toBe(0);
    expect(resumed.output).toContain(`The finished job for "Client 0001" has a result in Redis that does not verify: not used; its portfolio is valued again.`);
    expect(jsonReports(join(root, 'result'))).toEqual(jsonReports(join(dir, 'clean')));
    // Valued again by the worker: its second "Valuing" line (the journal had every holding, so no holding is asked twice).
    expect(worker.output.match(/Valuing "Client 0001"/g)).toHaveLength(2);
    expect(valuedItems(logFile, 'result-account')).toBe(valuedBefore);
    worker.child.kill('SIGTERM');
    await worker.exit;
  }, 120_000);
});
