import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { CHECKPOINT_FILE, readCheckpointState } from '../../reports/run/checkpoint';
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
  writeFileSync(holdings, csvFile(watchRows(150)));
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
    expect(wholeBatches).toBe(3);

    const broken = join(dir, 'interrupted');
    const first = startCli(args(broken), env());
    await afterFirstCheckpoint(broken, first.child);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const valued = await valuedInCheckpoint(broken);
    expect(valued).toBeGreaterThanOrEqual(50);
    expect(valued).toBeLessThan(150); // killed mid-run, not after it
    const chunksDone = valued / 50;

    before = await batchCount();
    const resumed = await runCli(args(broken, ['--resume']), env());
    expect(resumed.stderr).toMatch(/Resuming from the checkpoint/);
    expect(resumed.code).toBe(0);
    expect((await batchCount()) - before).toBe(3 - chunksDone);
    expect(existsSync(join(broken, CHECKPOINT))).toBe(false);

    const [a, b] = [await allContent(whole), await allContent(broken)];
    expect(b.json).toBe(a.json);
    expect(b.csv).toBe(a.csv);
    expect(b.pdf).toBe(a.pdf);
    expect(b.xlsx).toEqual(a.xlsx);
    expect(JSON.parse(b.json).projections.included).toBe(true);
  });

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
    expect(JSON.parse(readFileSync(resumed.stdout.trim(), 'utf8')).summary.asset_count).toBe(150);
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
