import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { CHECKPOINT_FILE, readCheckpointState } from '../../reports/run/checkpoint';
import { startSandbox } from '../../src/sandbox';
import {
  csvFile,
  pdfText,
  readXlsx,
  reportFiles,
  runCli,
  serviceEnv,
  sheetValues,
  startCli,
  tempDir,
  testSandbox,
  watchRows,
  type TestSandbox,
} from './helpers';

const CHECKPOINT = CHECKPOINT_FILE;
let sb: TestSandbox;
let dir: string;
let holdings: string;
let config: string;

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir();
  holdings = join(dir, 'resume-me.csv');
  writeFileSync(holdings, csvFile(watchRows(300))); // six chunks: with several in flight, still time to kill between the first and the last
  config = join(dir, 'firm.json');
  writeFileSync(config, JSON.stringify({ prepared_by: 'Meridian Wealth Partners' }));
});
afterAll(async () => {
  await sb?.close();
});

// Pro tier paced at 300 per 30 s (one request every 100 ms; the sandbox allows 300 a minute) leaves time to interrupt between chunks.
const args = (out: string, extra: string[] = []) => ['run', holdings, '--out', out, '--as-of', '2026-10-31', '--tier', 'pro', '--minute-ms', '30000', '--config', config, ...extra];
const env = () => serviceEnv(sb, 'demo-pro');
const batchCount = async () => (await sb.log()).filter((l) => l.path.endsWith('/valuations/batch')).length;

/** Waits until the run has checkpointed at least one chunk, then returns how many holdings it holds. */
async function afterFirstCheckpoint(out: string, child: ChildProcess): Promise<void> {
  const file = join(out, CHECKPOINT);
  for (let i = 0; i < 2000 && child.exitCode === null; i++) {
    if (existsSync(file)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the run never wrote a checkpoint');
}

async function valuedInCheckpoint(out: string): Promise<number> {
  const state = await readCheckpointState(join(out, CHECKPOINT));
  return state!.portfolios['resume-me']!.valuations.filter((v) => v !== null).length;
}

async function allContent(out: string) {
  const f = reportFiles(out, 'resume-me');
  const wb = await readXlsx(f.xlsx);
  return {
    json: readFileSync(f.json, 'utf8'),
    csv: readFileSync(f.csv, 'utf8'),
    pdf: pdfText(f.pdf),
    xlsx: Object.fromEntries(wb.worksheets.map((ws) => [ws.name, sheetValues(wb, ws.name)])),
  };
}

describe('svc-report run --resume', () => {
  it('after kill -9, resumes without re-valuing what was checkpointed and writes the same reports as an uninterrupted run', async () => {
    const whole = join(dir, 'uninterrupted');
    let before = await batchCount();
    const full = await runCli(args(whole), env());
    expect(full.code).toBe(0);
    const wholeBatches = (await batchCount()) - before;
    expect(wholeBatches).toBe(6);

    const broken = join(dir, 'interrupted');
    const first = startCli(args(broken), env());
    await afterFirstCheckpoint(broken, first.child);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const valued = await valuedInCheckpoint(broken);
    expect(valued).toBeGreaterThanOrEqual(50);
    expect(valued).toBeLessThan(300); // killed mid-run, not after it
    const chunksDone = valued / 50;

    before = await batchCount();
    const resumed = await runCli(args(broken, ['--resume']), env());
    expect(resumed.stderr).toMatch(/Resuming from the checkpoint/);
    expect(resumed.code).toBe(0);
    expect((await batchCount()) - before).toBe(6 - chunksDone);
    expect(existsSync(join(broken, CHECKPOINT))).toBe(false);

    const [a, b] = [await allContent(whole), await allContent(broken)];
    expect(b.json).toBe(a.json);
    expect(b.csv).toBe(a.csv);
    expect(b.pdf).toBe(a.pdf);
    expect(b.xlsx).toEqual(a.xlsx);
    expect(JSON.parse(b.json).projections.included).toBe(true);
  }, 240_000);

  it('on Ctrl-C keeps the checkpoint, exits 130 saying how to resume, and --resume finishes the run', async () => {
    const out = join(dir, 'sigint');
    const run = startCli(args(out), env());
    await afterFirstCheckpoint(out, run.child);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/--resume/);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(r.stdout).toBe('');
    expect(existsSync(join(out, CHECKPOINT))).toBe(true);

    const resumed = await runCli(args(out, ['--resume', '--formats', 'json']), env());
    expect(resumed.code).toBe(0);
    expect(JSON.parse(readFileSync(resumed.stdout.trim(), 'utf8')).summary.asset_count).toBe(300);
  });

  it('refuses a checkpoint made for other holdings (exit 2)', async () => {
    const out = join(dir, 'sigint-other');
    const run = startCli(args(out), env());
    await afterFirstCheckpoint(out, run.child);
    run.child.kill('SIGKILL');
    await run.done;
    const other = join(dir, 'other.csv');
    writeFileSync(other, csvFile(watchRows(3)));
    const r = await runCli(['run', other, '--out', out, '--as-of', '2026-10-31', '--resume'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/checkpoint .* belongs to a run with other holdings/);
  });
});

describe('svc-report run --resume with chunks in flight', () => {
  let slow: { url: string; close(): Promise<void> };
  /** The same market without the latency, for the sequential reference run (the seed drives only the faults). */
  let quick: { url: string; close(): Promise<void> };
  let slowLog: string;
  beforeAll(async () => {
    slowLog = join(dir, 'slow.jsonl');
    // Answers take 250–350 ms while a call leaves every 100 ms: about three chunks are always in flight.
    slow = await startSandbox({ port: 0, quiet: true, faults: 'latency=250-350', seed: 5, logFile: slowLog });
    quick = await startSandbox({ port: 0, quiet: true });
  });
  afterAll(async () => {
    await slow?.close();
    await quick?.close();
  });

  const slowArgs = (file: string, out: string, extra: string[] = []) => ['run', file, '--out', out, '--formats', 'json,csv', '--as-of', '2026-10-31', '--tier', 'pro', '--minute-ms', '30000', ...extra];
  /** The slow sandbox's log once it stops growing (an aborted call is logged when its latency ends). */
  const slowLines = async () => {
    const read = () => (existsSync(slowLog) ? readFileSync(slowLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { path: string; status: number; items: number }) : []);
    let lines = read();
    for (let last = -1; lines.length !== last; lines = read()) {
      last = lines.length;
      await new Promise((r) => setTimeout(r, 500));
    }
    return lines;
  };
  const valuationCalls = <L extends { path: string }>(lines: L[]) => lines.filter((l) => l.path.endsWith('/valuations/batch'));

  it('after kill -9 with chunks in flight, once at least two chunks were journaled, re-sends only the chunks that never landed and writes the reports of a sequential run', async () => {
    const file = join(dir, 'in-flight.csv');
    writeFileSync(file, csvFile(watchRows(500))); // ten chunks
    const sequential = join(dir, 'in-flight-sequential');
    expect((await runCli(slowArgs(file, sequential, ['--concurrency', '1']), serviceEnv(quick, 'demo-pro'))).code).toBe(0);

    const out = join(dir, 'in-flight');
    const before = valuationCalls(await slowLines()).length;
    const run = startCli(slowArgs(file, out), serviceEnv(slow, 'demo-pro'));
    const checkpoint = join(out, CHECKPOINT);
    const journaled = async () => (existsSync(checkpoint) ? ((await readCheckpointState(checkpoint))?.portfolios['in-flight']?.valuations.filter((v) => v !== null).length ?? 0) : 0);
    // Kill once at least two chunks are journaled: the journal must record every chunk as it lands, not only the first.
    for (let i = 0; i < 4000 && run.child.exitCode === null && (await journaled()) < 100; i++) await new Promise((r) => setTimeout(r, 5));
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    const valued = await journaled();
    expect(valued).toBeGreaterThanOrEqual(100);
    expect(valued).toBeLessThan(500);
    expect(valued % 50).toBe(0); // whole chunks only

    // The service saw more valuation calls than were journaled: chunks were in flight when the run died.
    const firstRun = valuationCalls(await slowLines()).slice(before);
    expect(firstRun.length).toBeGreaterThan(valued / 50);

    const mark = valuationCalls(await slowLines()).length;
    const resumed = await runCli(slowArgs(file, out, ['--resume']), serviceEnv(slow, 'demo-pro'));
    expect(resumed.stderr).toMatch(/Resuming from the checkpoint/);
    expect(resumed.code).toBe(0);
    const resent = valuationCalls(await slowLines()).slice(mark);
    // Exactly the holdings the journal did not hold are sent again, each once.
    expect(resent.every((l) => l.status === 200)).toBe(true);
    expect(resent.reduce((n, l) => n + l.items, 0)).toBe(500 - valued);

    for (const ext of ['json', 'csv'] as const) {
      const name = `in-flight-2026-10-31.${ext}`;
      expect(readFileSync(join(out, name), 'utf8')).toBe(readFileSync(join(sequential, name), 'utf8'));
    }
  }, 240_000);

  it('values again the holdings of a checkpoint line that was edited, saying so (exit 0); a run without --resume warns that it discards the checkpoint', async () => {
    const file = join(dir, 'tampered.csv');
    writeFileSync(file, csvFile(watchRows(300)));
    const out = join(dir, 'tampered');
    const run = startCli(slowArgs(file, out), serviceEnv(slow, 'demo-pro'));
    await afterFirstCheckpoint(out, run.child);
    run.child.kill('SIGKILL');
    await run.done;
    const path = join(out, CHECKPOINT);
    const lines = readFileSync(path, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"mid":'));
    expect(k).toBeGreaterThan(0);
    lines[k] = lines[k]!.replace(/"mid":[^,]+/, '"mid":"NaN"');
    writeFileSync(path, lines.join('\n'));
    const copy = join(dir, 'tampered-copy');
    cpSync(out, copy, { recursive: true });

    const resumed = await runCli(slowArgs(file, out, ['--resume', '--formats', 'json']), serviceEnv(slow, 'demo-pro'));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`checkpoint: \\d+ entries failed their check and were valued again \\(line ${k + 1}: its MAC does not verify\\)`));
    expect(resumed.stderr).not.toMatch(/unexpected error|NaN/);
    expect(JSON.parse(readFileSync(resumed.stdout.trim(), 'utf8')).summary.asset_count).toBe(300);

    const afresh = await runCli(slowArgs(file, copy, ['--formats', 'json']), serviceEnv(slow, 'demo-pro'));
    expect(afresh.stderr).toMatch(/Warning: an interrupted run's checkpoint is in .* it is discarded/);
    expect(afresh.code).toBe(0);
    expect(JSON.parse(readFileSync(afresh.stdout.trim(), 'utf8')).summary.asset_count).toBe(300);
  }, 240_000);
});
