import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError, ServiceClient, type FetchLike } from '../../src/client';
import { loadHoldings } from '../../src/holdings/load';
import { startSandbox, type LogLine } from '../../src/sandbox';
import { Checkpoint, CHECKPOINT_FILE, readCheckpointState } from '../../reports/run/checkpoint';
import { valueEverything } from '../../reports/run/value-portfolios';
import { csvFile, runCli, serviceEnv, startCli, tempDir, watchRows } from './helpers';

/** Every answer takes exactly this long: a request's arrival is its log time (answer time) minus it. */
const LATENCY_MS = 600;

let sb: { url: string; close(): Promise<void> };
/**
 * The same market without the latency, for the sequential reference run: the seed only drives the
 * faults (the market model is the same in every sandbox), so its reports are the slow one's, and a
 * sequential run of twelve chunks does not wait 600 ms on each of its calls.
 */
let quick: { url: string; close(): Promise<void> };
let dir: string;
let logFile: string;

beforeAll(async () => {
  dir = tempDir('svc-report-interrupt-');
  logFile = join(dir, 'requests.jsonl');
  sb = await startSandbox({ port: 0, quiet: true, faults: `latency=${LATENCY_MS}`, seed: 11, logFile });
  quick = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sb?.close();
  await quick?.close();
});

/** The sandbox's request log once it stops growing (a cancelled call is logged, 499, when its latency ends). */
async function requestLog(): Promise<LogLine[]> {
  const read = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine) : []);
  let lines = read();
  for (let last = -1; lines.length !== last; lines = read()) {
    last = lines.length;
    await new Promise((r) => setTimeout(r, 2 * LATENCY_MS));
  }
  return lines;
}

const itemsIn = (lines: readonly LogLine[], suffix: string) => lines.filter((l) => l.status === 200 && l.path.endsWith(suffix)).reduce((n, l) => n + l.items, 0);

describe('Ctrl-C with chunks in flight', () => {
  it('a run stopped while scoring has started early and valuations are still landing leaves no rejection unobserved', async () => {
    const file = join(dir, 'early.csv');
    writeFileSync(file, csvFile(watchRows(400))); // eight chunks: scoring starts when the first lands, with the others in flight
    const [input] = (await loadHoldings([file], { asOf: '2026-10-31' })).portfolios;
    const controller = new AbortController();
    let scoreCallsSent = 0;
    // Valuation answers arrive after their round trip even once the run is stopped (a slow abort);
    // the first score call stops the run. Its cancellation then settles before the valuations do.
    const fetch: FetchLike = (url, init) => {
      if (String(url).endsWith('/valuations/batch')) return globalThis.fetch(url, { ...init, signal: undefined });
      if (String(url).endsWith('/scores/batch') && scoreCallsSent++ === 0) controller.abort();
      return globalThis.fetch(url, init);
    };
    const client = new ServiceClient({ baseUrl: sb.url, clientId: 'demo-enterprise', clientSecret: 'demo-enterprise-secret', tier: 'enterprise', rateLimitKey: `interrupt-${Math.random()}`, fetch });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const cp = Checkpoint.fresh(tempDir(), 'key', '2026-11-01T00:00:00.000Z');
      const run = valueEverything(client, [input!], cp, { currency: 'USD', signal: controller.signal, progress: { update() {}, log() {}, stop() {} }, consolidated: false });
      await expect(run).rejects.toBeInstanceOf(AbortedError);
      await cp.close();
      // Node reports an unobserved rejection after the microtask queue drains: give it a few turns.
      for (let k = 0; k < 5; k++) await new Promise((r) => setTimeout(r, 20));
      expect(scoreCallsSent).toBeGreaterThan(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('SIGINT to svc-report: exit 130, calls in flight awaited and none leaves after the stop, the checkpoint whole; --resume writes the reports of a sequential run, no chunk valued twice', async () => {
    const file = join(dir, 'ctrl-c.csv');
    writeFileSync(file, csvFile(watchRows(600))); // twelve chunks
    // Pro paced at 300 per 30 s: a call leaves every 100 ms and each takes 600 ms, so about six are in flight.
    const args = (out: string, extra: string[] = []) => ['run', file, '--out', out, '--formats', 'json,csv', '--as-of', '2026-10-31', '--tier', 'pro', '--minute-ms', '30000', ...extra];
    const env = serviceEnv(sb, 'demo-pro');

    const sequential = join(dir, 'sequential');
    expect((await runCli(args(sequential, ['--concurrency', '1']), serviceEnv(quick, 'demo-pro'))).code).toBe(0);

    const out = join(dir, 'interrupted');
    const checkpoint = join(out, CHECKPOINT_FILE);
    const mark = (await requestLog()).length;
    const run = startCli(args(out), env);
    let stoppedAt = Infinity;
    run.child.stderr!.on('data', (d: Buffer) => {
      if (stoppedAt === Infinity && d.toString().includes('Stopping')) stoppedAt = Date.now();
    });
    const journaled = async () => {
      try {
        return existsSync(checkpoint) ? ((await readCheckpointState(checkpoint))?.portfolios['ctrl-c']?.valuations.filter((v) => v !== null).length ?? 0) : 0;
      } catch {
        return 0; // read while a line was being appended
      }
    };
    for (let i = 0; i < 6000 && run.child.exitCode === null && (await journaled()) < 100; i++) await new Promise((r) => setTimeout(r, 5));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/--resume/);
    // No unhandled rejection, nothing unexpected: a cancelled call that nobody awaited would end the process with 1.
    expect(stopped.stderr).not.toMatch(/unexpected error|Unhandled|AbortedError|at .*\.ts:\d+/);
    expect(stoppedAt).toBeLessThan(Infinity);

    const first = (await requestLog()).slice(mark);
    // Several chunks were in flight when the signal came (arrived before it, answered after it),
    // and each was awaited rather than cancelled: answered, so journaled below, not valued again.
    const inFlight = first.filter((l) => l.path.endsWith('/batch') && Date.parse(l.t) > stoppedAt);
    expect(inFlight.length, JSON.stringify({ stoppedAt: new Date(stoppedAt), first })).toBeGreaterThanOrEqual(2);
    expect(inFlight.map((l) => l.status)).toEqual(inFlight.map(() => 200));
    // No call left after the stop: each line's arrival (answer time − latency, an upper bound) is
    // before the stop was seen on stderr, give or take the sandbox's own scheduling on a loaded machine.
    const lateArrivals = first.filter((l) => Date.parse(l.t) - LATENCY_MS > stoppedAt + 250);
    expect(lateArrivals).toEqual([]);

    // The checkpoint is whole: every line is JSON, the file ends with a complete line, and it replays.
    const text = readFileSync(checkpoint, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();
    const valued = await journaled();
    expect(valued).toBeGreaterThanOrEqual(100);
    expect(valued).toBeLessThan(600);
    expect(valued % 50).toBe(0);

    // The log as read into `first` above, once it had stopped growing: nothing has called the sandbox since.
    const before = mark + first.length;
    const resumed = await runCli(args(out, ['--resume']), env);
    expect(resumed.stderr).toMatch(/Resuming from the checkpoint/);
    expect(resumed.code).toBe(0);
    const second = (await requestLog()).slice(before);
    // Each holding valued once over both runs: the resumed run sends only what the journal lacked.
    expect(itemsIn(second, '/valuations/batch')).toBe(600 - valued);
    expect(itemsIn(first, '/valuations/batch') + itemsIn(second, '/valuations/batch')).toBe(600);
    expect(itemsIn(first, '/scores/batch') + itemsIn(second, '/scores/batch')).toBe(600);

    for (const ext of ['json', 'csv'] as const) {
      const name = `ctrl-c-2026-10-31.${ext}`;
      expect(readFileSync(join(out, name), 'utf8'), name).toBe(readFileSync(join(sequential, name), 'utf8'));
    }
  }, 240_000);
});
