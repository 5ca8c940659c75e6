import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { ROOT as REPO } from '../../fixtures/commands';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { killAll, svcReport as spawnReport } from './support/processes';

/**
 * Issue 28 over issue 29's queue: a job names the run's brand by its digest, never a path. A
 * worker started with the same brand file brands the reports (the firm's name in the PDF's
 * text, read back by pdftotext); a worker without it, or with another brand, refuses the job,
 * unexecuted, with a reason saying how to start it.
 */
const MINUTE_MS = 1000;
const AS_OF = '2026-10-30';
const BRAND = join(REPO, 'examples', 'brand', 'brand.json');
const FIRM = 'Ashgrove & Vale Private Wealth';
const dir = mkdtempSync(join(tmpdir(), 'svc-queue-brand-'));
const root = join(dir, 'root');
const secret = `brand-${Date.now()}-service`;
let sandbox: RunningSandbox;
let redis: RedisProcess;

const svcReport = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: 'brand-account', SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', ...env });
const common = () => ['--redis', redis.url, '--tier', 'pro', '--minute-ms', String(MINUTE_MS)];
const pdfText = (file: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: MINUTE_MS, accounts: [{ client_id: 'brand-account', client_secret: secret, tier: 'pro', per_minute: 100_000, per_day: 1_000_000 }] });
  redis = await startRedis();
  mkdirSync(root);
  writeFileSync(join(dir, 'holdings.csv'), holdingsCsv(1, 5));
}, 120_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
});

async function queuedRun(folder: string, worker: string[], runArgs: string[] = []) {
  const w = svcReport(['worker', '--out', root, ...common(), ...worker]);
  onTestFinished(async () => {
    w.child.kill('SIGTERM');
    await w.exit;
  });
  await w.said(/Worker ready/);
  const run = svcReport(['run', join(dir, 'holdings.csv'), '--out', join(root, folder), '--queue', '--brand', BRAND, '--as-of', AS_OF, '--formats', 'json,pdf', ...common(), ...runArgs]);
  return { worker: w, run, code: await run.exit };
}

describe('a branded run through the queue', () => {
  it("a worker with the run's brand file writes branded reports", async () => {
    const { run, code } = await queuedRun('branded', ['--brand', BRAND]);
    expect(code, run.output).toBe(0);
    const pdf = readdirSync(join(root, 'branded')).find((f) => f.endsWith('.pdf'))!;
    const text = pdfText(join(root, 'branded', pdf));
    expect(text).toContain(FIRM);
  }, 180_000);

  it('a worker without a brand, or with another, refuses the job unexecuted and says how to start it', async () => {
    const { worker, run, code } = await queuedRun('unbranded', []);
    expect(code).not.toBe(0);
    expect(worker.output).toMatch(/Refused job .*the run's brand is Ashgrove & Vale Private Wealth's \(SHA-256 [0-9a-f]{12}…\) but this worker has none \(--brand, or brand in its config\): start every worker with the run's brand file; not executed/);
    expect(worker.output).not.toMatch(/Valuing "/);
    expect(run.output).toMatch(/Portfolio "Client 0001" was not valued: a worker refused its job \(the run's brand is .*start every worker with the run's brand file\); once the workers are set right, run the same command with --resume/);

    worker.child.kill('SIGTERM');
    await worker.exit;

    // Another brand: the same file with one colour changed has another digest.
    const other = join(dir, 'other-brand');
    cpSync(join(REPO, 'examples', 'brand'), other, { recursive: true });
    const doc = JSON.parse(readFileSync(join(other, 'brand.json'), 'utf8'));
    writeFileSync(join(other, 'brand.json'), JSON.stringify({ ...doc, accent_colour: '#123456' }));
    // The same month-end again, as the message says (--resume: the refused job is tried again).
    const second = await queuedRun('unbranded', ['--brand', join(other, 'brand.json')], ['--resume']);
    expect(second.code, second.run.output).not.toBe(0);
    expect(second.worker.output).toMatch(/but this worker's is Ashgrove & Vale Private Wealth's \(.*other-brand\/brand\.json, SHA-256 [0-9a-f]{12}…\)/);
  }, 240_000);
});
