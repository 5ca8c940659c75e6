import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFile, ROOT, runCli, serviceEnv, startCli, tempDir, testSandbox, watchRows, type CliResult, type TestSandbox } from './helpers';

/** What a user of `svc-report` meets at the command line: usage, messages, --out, signals, what is printed. */

/** Each test runs the command a few times, each start-up a few seconds on a loaded 2-core machine. */
const LOADED_MACHINE_MS = 240_000;

let sb: TestSandbox;
let dir: string;
let oneHolding: string;

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-report-cli-behaviour-');
  oneHolding = join(dir, 'one.csv');
  writeFileSync(oneHolding, csvFile(watchRows(1)));
});
afterAll(async () => {
  await sb?.close();
});

const calls = async () => (await sb.log()).length;

/** Runs the command, killing it after `ms` if it has not ended (a hang then fails the test instead of leaking a process). */
async function runWithin(args: string[], env: NodeJS.ProcessEnv, ms: number): Promise<CliResult> {
  const { child, done } = startCli(args, env);
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  try {
    return await done;
  } finally {
    clearTimeout(timer);
  }
}

describe('svc-report usage', { timeout: LOADED_MACHINE_MS }, () => {
  it('--version prints the package version; bare svc-report prints the help and exits 2', async () => {
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);

    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/Usage: svc-report \[options\] \[command\]/);
  });

  it('says "1 file written" for one file, and warns when --previous has no report for a portfolio', async () => {
    const previous = join(dir, 'empty-previous');
    mkdirSync(previous, { recursive: true });
    const r = await runCli(['run', oneHolding, '--out', join(dir, 'one-out'), '--formats', 'json', '--as-of', '2026-10-31', '--previous', previous], serviceEnv(sb));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Done: every holding valued; 1 file written\./);
    expect(r.stderr).toMatch(/Warning: --previous .*empty-previous has no report for "one"; its report shows no month-on-month change/);
  });

  it('warns when the previous report is in another currency: no month-on-month change, and how to compare', async () => {
    const eur = join(dir, 'eur-previous');
    const first = await runCli(['run', oneHolding, '--out', eur, '--formats', 'json', '--as-of', '2026-09-30', '--currency', 'EUR', '--fx-rates', join(ROOT, 'examples/fx-rates-ILLUSTRATIVE.csv')], serviceEnv(sb));
    expect(first.code).toBe(0);
    const r = await runCli(['run', oneHolding, '--out', join(dir, 'usd-after-eur'), '--formats', 'json', '--as-of', '2026-10-31', '--previous', eur], serviceEnv(sb));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Warning: the previous report for "one" is in EUR and this run is in USD; its report shows no month-on-month change \(run with --currency EUR to compare\)/);
    const report = JSON.parse(readFileSync(r.stdout.trim(), 'utf8')) as { summary: { month_on_month: unknown } };
    expect(report.summary.month_on_month).toBeNull();
  });

  it('a bad --tz is named as --tz, not as a bad --cron', async () => {
    const r = await runCli(['schedule', oneHolding, '--cron', '0 6 1 * *', '--tz', 'Europe/Lodnon', '--out', join(dir, 'tz-out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--tz "Europe\/Lodnon" is not a time zone/);
    expect(r.stderr).not.toMatch(/--cron/);
  });
});

describe('--out', { timeout: LOADED_MACHINE_MS }, () => {
  it('a file as --out: exit 2 with a sentence, before any call is spent', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const before = await calls();
    const r = await runCli(['run', oneHolding, '--out', file], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/svc-report: --out .*a-file is a file, not a folder/);
    expect(r.stderr).not.toMatch(/unexpected error|EEXIST/);
    expect(await calls()).toBe(before);
  });

  it('a run refused after --out was made (a misspelt column: exit 2) leaves none of the folders it created; one that was there stays', async () => {
    const misspelt = join(dir, 'misspelt.csv');
    const [header, ...rows] = csvFile(watchRows(1)).split('\n');
    expect(header).toContain('purchase_price');
    writeFileSync(misspelt, [header!.replace('purchase_price', 'purchse_price'), ...rows].join('\n'));
    const fresh = join(dir, 'refused-parent', 'refused-out');
    const r = await runCli(['run', misspelt, '--out', fresh], serviceEnv(sb));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean/);
    expect(existsSync(join(dir, 'refused-parent'))).toBe(false);

    const existing = join(dir, 'existing-out');
    mkdirSync(existing);
    const again = await runCli(['run', misspelt, '--out', existing], serviceEnv(sb));
    expect(again.code).toBe(2);
    expect(existsSync(existing)).toBe(true);
  });

  it('a folder the system will not create (/proc/x): exit 2 at once instead of spinning', async () => {
    const r = await runWithin(['run', oneHolding, '--out', '/proc/svc-report-test'], serviceEnv(sb), 120_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write the reports into --out \/proc\/svc-report-test/);
  });
});

describe('signals', { timeout: LOADED_MACHINE_MS }, () => {
  let hanging: Server;
  let requests = 0;
  let sawRequest: () => void;
  const requestSeen = new Promise<void>((resolve) => (sawRequest = resolve));

  beforeAll(async () => {
    // A service that takes every request and never answers.
    hanging = createServer(() => {
      requests++;
      sawRequest();
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it('the first SIGTERM ends a run that waits on a service that never answers: exit 130', async () => {
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
    const { child, done } = startCli(['run', oneHolding, '--out', join(dir, 'term-out')], { SVC_BASE_URL: url, SVC_CLIENT_ID: 'a', SVC_CLIENT_SECRET: 'b' });
    const stuck = setTimeout(() => child.kill('SIGKILL'), 200_000); // never reached the service: do not leak the process
    await requestSeen;
    expect(requests).toBeGreaterThan(0);
    child.kill('SIGTERM');
    // Far above the 5 s the command allows itself to stop, far below the client's own request timeout (what ended it before).
    const killer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const r = await done;
    clearTimeout(stuck);
    clearTimeout(killer);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Stopping/);
  });
});

describe('what is printed', { timeout: LOADED_MACHINE_MS }, () => {
  it('control characters from a holdings file are escaped on stderr: no colour, no forged line', async () => {
    const file = join(dir, 'forge.csv');
    // A header with ESC and CR/LF in it, reported as an unknown column.
    writeFileSync(file, `${'segment,brand,model,purchase_price,purchase_date,"\u001b[31mred\r\nDone: every holding valued; 99 files written."'}\nwatches,Rolex,Daytona,30000,2020-01-01,x\n`);
    const r = await runCli(['run', file, '--out', join(dir, 'forge-out'), '--formats', 'json', '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('Done:'))).toEqual(['Done: every holding valued; 1 file written.']);
    expect(r.stderr).toContain('\\e[31mred\\r\\nDone: every holding valued; 99 files written.');
  });

  it('a return above 1,000 % is flagged for the analyst: on stderr and in the xlsx Errors sheet (read back with openpyxl)', async () => {
    const file = join(dir, 'implausible.csv');
    // A Submariner "bought for 100": a typo the report must not pass silently.
    writeFileSync(file, csvFile(['watches,Rolex,Submariner Date,126610LN,2021,very_good,1,100,2022-03-14,USD,typo']));
    const r = await runCli(['run', file, '--out', join(dir, 'implausible-out'), '--formats', 'xlsx', '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/implausible: row 2 \(Rolex Submariner.*\): a return of [\d,]+ % since purchase is above 1,000 %/);
    const script = 'import openpyxl,sys\nwb=openpyxl.load_workbook(sys.argv[1])\nprint("\\n".join(str(c) for row in wb["Errors"].iter_rows(values_only=True) for c in row if c is not None))';
    const errorsSheet = execFileSync('/usr/bin/python3', ['-c', script, r.stdout.trim()], { encoding: 'utf8' });
    expect(errorsSheet).toMatch(/row 2 \(Rolex Submariner.*\): a return of [\d,]+ % since purchase is above 1,000 %/);
  });

  it('a password in SVC_BASE_URL is refused at start-up and never printed', async () => {
    const url = new URL(sb.url);
    url.username = 'firm';
    url.password = 'hunter2-secret';
    const out = join(dir, 'password-out');
    const r = await runCli(['run', oneHolding, '--out', out], { ...serviceEnv(sb), SVC_BASE_URL: url.toString() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/SVC_BASE_URL contains a user name or password/);
    expect(r.stderr + r.stdout).not.toContain('hunter2');
    expect(existsSync(join(out, 'one-2026-10-31.json'))).toBe(false);
  });
});
