import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/sandbox';
import { csvFile, pdfText, readJson, readXlsx, runCli, serviceEnv, tempDir, testSandbox, watchRows, type TestSandbox } from './helpers';

let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  // The demo accounts plus one whose day is almost spent, for the budget check.
  sb = await testSandbox({ accounts: [...DEMO_ACCOUNTS, { client_id: 'nearly-spent', client_secret: 'nearly-spent-secret', tier: 'starter', per_day: 4 }] });
  dir = tempDir();
});
afterAll(async () => {
  await sb?.close();
});

describe('svc-report usage', () => {
  it.each([[[]], [['run']], [['dashboard']], [['schedule']]])('--help %j exits 0 and prints usage on stdout', async (cmd) => {
    const r = await runCli([...cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`Usage: svc-report ${cmd[0] ?? ''}`));
    if (cmd[0] === 'run' || cmd[0] === 'schedule') expect(r.stdout).toMatch(/Exit codes: 0 every holding valued; 3/);
  });

  it('exits 2 with a clear message for an unreadable or missing file, a bad option and a bad file', async () => {
    const missing = await runCli(['run', join(dir, 'nope.csv'), '--out', join(dir, 'x')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read holdings file .*nope\.csv: no such file/);
    expect(missing.stdout).toBe('');

    const badJson = join(dir, 'broken.json');
    writeFileSync(badJson, '{"holdings": [');
    const broken = await runCli(['run', badJson, '--out', join(dir, 'x')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json is not valid JSON/);

    const noSegment = join(dir, 'columns.csv');
    writeFileSync(noSegment, 'name,price\nwatch,100\n');
    expect((await runCli(['run', noSegment, '--out', join(dir, 'x')])).stderr).toMatch(/has no segment or asset_id column/);

    const formats = await runCli(['run', badJson, '--out', join(dir, 'x'), '--formats', 'xlsx,docx']);
    expect(formats.code).toBe(2);
    expect(formats.stderr).toMatch(/--formats takes a comma-separated list of xlsx, csv, json, pdf, html \(unknown: docx\)/);

    const noOut = await runCli(['run', badJson]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);

    const clash = join(dir, 'clash.csv');
    writeFileSync(clash, 'portfolio,segment,brand,model,purchase_price,purchase_date\nSmith Family,watches,Rolex,Daytona,1,2020-01-01\nsmith-family,watches,Rolex,Daytona,1,2020-01-01\n');
    const same = await runCli(['run', clash, '--out', join(dir, 'x')]);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/"Smith Family" and "smith-family" would be written to the same files/);

    const future = await runCli(['run', noSegment, '--out', join(dir, 'x'), '--as-of', '2999-01-01']);
    expect(future.code).toBe(2);
    for (const r of [missing, broken, formats, future]) expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    // Seven runs of the command: generous on a loaded machine.
  }, 300_000);

  it('exits 1 when the service refuses the credentials', async () => {
    const file = join(dir, 'creds.csv');
    writeFileSync(file, csvFile(watchRows(1)));
    const r = await runCli(['run', file, '--out', join(dir, 'creds-out')], { ...serviceEnv(sb), SVC_CLIENT_SECRET: 'wrong' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/svc-report: the service call failed/);
    expect(r.stderr).not.toContain('wrong');
  });

  it('reports a portfolio that would exceed the day\'s budget before any valuation is spent', async () => {
    const file = join(dir, 'too-big.csv');
    writeFileSync(file, csvFile(watchRows(120)));
    const r = await runCli(['run', file, '--out', join(dir, 'budget-out'), '--formats', 'json', '--tier', 'starter', '--minute-ms', '6000'], serviceEnv(sb, 'nearly-spent'));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/"too-big" was not valued: it needs about \d+ requests but only 3 remain in today's budget.*About 50 of its 120 holdings/);
    const log = await sb.log();
    expect(log.filter((l) => l.client_id === 'nearly-spent' && l.path.endsWith('/valuations/batch'))).toHaveLength(0);
    const json = readJson(r.stdout.trim());
    expect(json.summary.asset_count).toBe(0);
    // The portfolio-level reason is for the analyst (JSON analyst_notes, stderr); each holding is a row error.
    expect(json.analyst_notes.some((n: string) => /today's budget/.test(n))).toBe(true);
    expect(json.errors.filter((e: { row: number | null }) => e.row !== null)).toHaveLength(120);
    // Kept so a run after the reset values them with --resume.
    expect(existsSync(join(dir, 'budget-out', '.svc-report-checkpoint.jsonl'))).toBe(true);
    expect(r.stderr).toMatch(/120 holdings were not valued for a passing reason .* --resume/);
  });
});

describe('svc-report with no service configured', () => {
  it('starts the embedded sandbox, says so on stderr and marks the reports as sandbox data', async () => {
    const file = join(dir, 'embedded.csv');
    writeFileSync(file, csvFile(watchRows(3)));
    const log = join(dir, 'embedded.jsonl');
    // Default formats and no config file (so no prepared_by): the plain first-time use.
    const r = await runCli(['run', file, '--out', join(dir, 'embedded-out'), '--as-of', '2026-10-31', '--sandbox-log', log]);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(0);
    const files = r.stdout.trim().split('\n');
    expect(files.map((f) => f.split('.').pop()).sort()).toEqual(['csv', 'json', 'pdf', 'xlsx']);
    expect(pdfText(files.find((f) => f.endsWith('.pdf'))!)).toMatch(/SANDBOX/);
    expect(r.stderr).toMatch(/No SVC_BASE_URL set: using the embedded sandbox at http:\/\/127\.0\.0\.1:\d+\/v1 with the demo account demo-enterprise/);
    const json = readJson(files.find((f) => f.endsWith('.json'))!);
    expect(json.sandbox).toBe(true);
    expect(json.disclaimer).toMatch(/SANDBOX DATA/);
    expect(json.projections.included).toBe(true);
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.path.endsWith('/valuations/batch'))).toHaveLength(1);
  });
});

describe('svc-report dashboard', () => {
  it('writes the market dashboard in four formats', async () => {
    const out = join(dir, 'dash');
    const r = await runCli(['dashboard', '--out', out, '--as-of', '2026-10-31'], serviceEnv(sb));
    expect(r.code).toBe(0);
    const files = r.stdout.trim().split('\n');
    expect(files.map((f) => f.split('.').pop()).sort()).toEqual(['csv', 'json', 'pdf', 'xlsx']);
    const json = readJson(files.find((f) => f.endsWith('.json'))!);
    expect(pdfText(files.find((f) => f.endsWith('.pdf'))!)).toMatch(/Luxury Watches[\s\S]*Prestige Real Estate/);
    const csvText = readFileSync(files.find((f) => f.endsWith('.csv'))!, 'utf8');
    for (const s of ['watches', 'real_estate']) expect(csvText).toContain(s);
    const wb = await readXlsx(files.find((f) => f.endsWith('.xlsx'))!);
    expect(wb.worksheets.length).toBeGreaterThan(0);
    const segments = json.segments as { segment: string; change_30d_percent: number | null }[];
    expect(segments).toHaveLength(10);
    expect(segments.every((s) => s.change_30d_percent !== null)).toBe(true);
    expect(json.top_movers.length).toBeGreaterThan(0);
    expect(json.top_movers.length).toBeLessThanOrEqual(10);
    expect(json.sandbox).toBe(true);
  });
});

describe('svc-report schedule', () => {
  it('runs on the cron pattern into a month folder, with the previous month passed as --previous', async () => {
    const file = join(dir, 'scheduled.csv');
    writeFileSync(file, csvFile(watchRows(2)));
    const base = join(dir, 'scheduled-out');
    // A previous month's report for month-on-month.
    const earlier = join(base, '2000-01');
    const first = await runCli(['run', file, '--out', join(dir, 'seed'), '--formats', 'json', '--as-of', '2026-09-30'], serviceEnv(sb));
    expect(first.code).toBe(0);
    mkdirSync(earlier, { recursive: true });
    copyFileSync(first.stdout.trim(), join(earlier, 'scheduled-2026-09-30.json'));

    const r = await runCli(['schedule', file, '--cron', '* * * * * *', '--max-runs', '1', '--out', base, '--formats', 'json', '--tz', 'Europe/London'], serviceEnv(sb));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Scheduled "\* \* \* \* \* \*" \(Europe\/London\)/);
    const month = readdirSync(base).filter((n) => n !== '2000-01');
    expect(month).toHaveLength(1);
    expect(month[0]).toMatch(/^\d{4}-\d{2}$/);
    const report = readdirSync(join(base, month[0]!)).find((n) => n.startsWith('scheduled-') && n.endsWith('.json'));
    const json = readJson(join(base, month[0]!, report!));
    expect(json.summary.month_on_month.previous_as_of).toBe('2026-09-30');
  });

  it('refuses a pattern that is not cron (exit 2)', async () => {
    const r = await runCli(['schedule', 'x.csv', '--cron', 'every monday', '--out', join(dir, 's')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cron "every monday" is not a valid cron pattern/);
  });
});
