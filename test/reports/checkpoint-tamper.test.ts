import { createHmac } from 'node:crypto';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox';
import { CHECKPOINT_FILE } from '../../reports/run/checkpoint';
import { CHECKPOINT_KEY_FILE } from '../../reports/run/checkpoint-mac';
import { csvFile, runCli, serviceEnv, startCli, tempDir, watchRows } from './helpers';

/**
 * Issue 29: a checkpoint edited between an interrupted run and its --resume. Whatever the edit,
 * the resumed run's report equals an uninterrupted run's, and the run says what it did not use.
 * Lines are re-signed here with the key beside the checkpoint (as the format in docs/security.md
 * says, independently of the job's writer) where the edit is to reach the checks behind the MAC.
 */
let slow: { url: string; close(): Promise<void> };
/** The same market without the latency (the seed drives only the faults): the clean run's reference is the slow one's. */
let quick: { url: string; close(): Promise<void> };
let dir: string;
let holdings: string;
let interrupted: string;
let clean: string;

const args = (out: string, extra: string[] = []) => ['run', holdings, '--out', out, '--formats', 'json', '--as-of', '2026-10-31', '--tier', 'pro', '--minute-ms', '30000', ...extra];
const env = () => serviceEnv(slow, 'demo-pro');
const report = (out: string) => readFileSync(join(out, 'tamper-me-2026-10-31.json'), 'utf8');

beforeAll(async () => {
  // Answers take 250–350 ms: the run can be killed once its first chunk is journaled and before its last.
  slow = await startSandbox({ port: 0, quiet: true, faults: 'latency=250-350', seed: 7 });
  quick = await startSandbox({ port: 0, quiet: true });
  dir = tempDir();
  holdings = join(dir, 'tamper-me.csv');
  writeFileSync(holdings, csvFile(watchRows(200)));
  clean = join(dir, 'clean');
  expect((await runCli(args(clean), serviceEnv(quick, 'demo-pro'))).code).toBe(0);

  interrupted = join(dir, 'interrupted');
  const run = startCli(args(interrupted), env());
  const file = join(interrupted, CHECKPOINT_FILE);
  for (let i = 0; i < 4000 && run.child.exitCode === null && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 5));
  run.child.kill('SIGKILL');
  expect((await run.done).signal).toBe('SIGKILL');
}, 240_000);
afterAll(async () => {
  await slow?.close();
  await quick?.close();
});

type Line = Record<string, unknown> & { v?: Record<string, Record<string, unknown>>; a?: Record<string, string> };

/** A copy of the interrupted run's folder with its first valued holding's entry changed by `edit`, re-signed or not. */
function tampered(name: string, edit: (line: Line, position: string) => void, resign: boolean): string {
  const out = join(dir, name);
  cpSync(interrupted, out, { recursive: true });
  const path = join(out, CHECKPOINT_FILE);
  const lines = readFileSync(path, 'utf8').split('\n');
  const runKey = (JSON.parse(lines[0]!) as { key: string }).key;
  const secret = Buffer.from(readFileSync(join(out, CHECKPOINT_KEY_FILE), 'utf8').trim(), 'hex');
  const k = lines.findIndex((l) => l.startsWith('{"p"') && l.includes('"mid":'));
  expect(k).toBeGreaterThan(0);
  const { mac, ...line } = JSON.parse(lines[k]!) as Line;
  const position = Object.keys(line.v!).find((i) => line.v![i]!.ok === true)!;
  edit(line, position);
  const body = JSON.stringify(line);
  lines[k] = JSON.stringify({ ...line, mac: resign ? createHmac('sha256', secret).update(`${runKey}\n${body}`).digest('hex') : mac });
  writeFileSync(path, lines.join('\n'));
  return out;
}

describe('svc-report run --resume with an edited checkpoint', () => {
  it.each([
    ['a mid of 1e308', (l: Line, i: string) => (l.v![i]!.mid = 1e308), true, /1e\+308 is outside its own range/],
    ['a mid ×100, outside its own low/high', (l: Line, i: string) => (l.v![i]!.mid = (l.v![i]!.mid as number) * 100), true, /is outside its own range/],
    ['a wrong asset id', (l: Line, i: string) => (l.a![i] = 'WAT-SOMETHING-ELSE'), true, /it is for asset "WAT-SOMETHING-ELSE", not this run's/],
    ['a valid-looking value under a broken MAC', (l: Line, i: string) => (l.v![i]!.mid = (l.v![i]!.mid as number) * 1.01), false, /its MAC does not verify/],
  ])('values the entry again and writes the report of a clean run: %s', async (name, edit, resign, why) => {
    const out = tampered(name.replace(/\W+/g, '-'), edit, resign);
    const resumed = await runCli(args(out, ['--resume']), env());
    expect(resumed.stderr).toMatch(/Resuming from the checkpoint/);
    expect(resumed.stderr).toMatch(/checkpoint: \d+ (entry|entries) failed (its|their) check and (was|were) valued again \(line \d+: /);
    expect(resumed.stderr).toMatch(why);
    expect(resumed.code).toBe(0);
    // SOURCE_DATE_EPOCH fixes generated_at: the whole report compares, figure for figure.
    expect(report(out)).toBe(report(clean));
  }, 120_000);
});
