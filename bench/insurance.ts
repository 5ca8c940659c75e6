/**
 * What the insurance review costs a month-end (issue 37's goal: ≤ 1.05× the time): `svc-report
 * run` of the same portfolios with and without the cover columns (insured_value, insurer,
 * policy, renewal_date, serial on every row), all four formats, against the sandbox in its own
 * process with its limits lifted, `--db off` (the history is measured elsewhere), the compiled
 * command (built first with `npm run build`, as `npm install` does for users). Rounds
 * alternate the two inputs; the figures are the median CPU time (user + system of the command) and
 * wall time of each, and the median of the rounds' own ratios.
 *
 *   npx tsx bench/insurance.ts [--portfolios 10] [--holdings 50] [--rounds 5] [--formats xlsx,csv,json,pdf]
 *   # progress on stderr, ONE JSON line last
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../fixtures/commands';
import { round } from './support/request-log';
import { holdingsCsv, runReportCommand, type ReportRun } from './support/report-run';
import { runBench } from './support/run-bench';
import { spawnSandbox } from './support/sandbox-process';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const PORTFOLIOS = Number(arg('--portfolios', '10'));
const HOLDINGS = Number(arg('--holdings', '50'));
const ROUNDS = Number(arg('--rounds', '5'));
const FORMATS = arg('--formats', 'xlsx,csv,json,pdf');
const AS_OF = '2026-10-31';
const work = mkdtempSync(join(tmpdir(), 'bench-insurance-'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * A 90 % interval for the median of the rounds' ratios (percentile bootstrap, 2,000 resamples, a
 * fixed seed so a run's line is reproducible from its rounds): on a shared machine one round's
 * ratio swings by ±10 %, and the goal is only shown when the whole interval is within it.
 */
function medianInterval(xs: number[]): [number, number] {
  let seed = 0x9e3779b9;
  const next = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const medians = Array.from({ length: 2000 }, () => median(xs.map(() => xs[Math.floor(next() * xs.length)]!))).sort((a, b) => a - b);
  return [medians[100]!, medians[1899]!];
}
const INSURERS = ['Hiscox', 'Chubb', 'AXA Art'];

/** The same holdings with cover on every row: insured between 70 % and 140 % of the purchase price (every status occurs), a renewal within the year. */
function withCover(csv: string): string {
  const [header, ...rows] = csv.trimEnd().split('\r\n');
  const priceAt = header!.split(',').indexOf('Purchase Price');
  const covered = rows.map((row, i) => {
    const price = Number(row.split(',')[priceAt]) || 10_000;
    const insured = Math.round(price * (0.7 + (i % 8) * 0.1));
    const renewal = `2027-${String((i % 12) + 1).padStart(2, '0')}-15`;
    return `${row},${insured},${INSURERS[i % INSURERS.length]},P-${1000 + (i % 37)},${renewal},SN${100000 + i}`;
  });
  return [`${header},Insured Value,Insurer,Policy,Renewal Date,Serial`, ...covered].join('\r\n') + '\r\n';
}

/** The covered run must hold a review for every holding (a bench of a run that ignored the columns would measure nothing); read from its JSON, so checked when json is among the formats. */
function assertReviewed(out: string): void {
  const reports = readdirSync(out).filter((f) => f.endsWith('.json') && f.startsWith('client-'));
  const items = reports.map((f) => (JSON.parse(readFileSync(join(out, f), 'utf8')) as { insurance?: { items: unknown[] } }).insurance?.items.length ?? 0);
  if (reports.length !== PORTFOLIOS || items.some((n) => n !== HOLDINGS)) throw new Error(`the covered run reviewed ${items.join(', ')} items in ${reports.length} reports`);
}

runBench(work, async () => {
  // The tree as it is, compiled as users get it (npm install's prepare step).
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const secret = `bench-${randomUUID()}`; // a throwaway account on a local sandbox
  const accounts = join(work, 'accounts.json');
  writeFileSync(accounts, JSON.stringify([{ client_id: 'bench', client_secret: secret, tier: 'enterprise', per_minute: 10_000_000, per_day: 1_000_000_000 }]));
  const sandbox = await spawnSandbox(['--accounts', accounts]);
  const env = { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: 'bench', SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1' };
  const plain = holdingsCsv(PORTFOLIOS, HOLDINGS);
  const inputs = { plain: join(work, 'plain.csv'), insured: join(work, 'insured.csv') };
  writeFileSync(inputs.plain, plain);
  writeFileSync(inputs.insured, withCover(plain));
  const runs: Record<keyof typeof inputs, ReportRun[]> = { plain: [], insured: [] };
  const load = [loadavg()[0]!];
  try {
    for (let r = 0; r <= ROUNDS; r++) {
      // Alternating which goes first; round 0 warms the sandbox and the disk cache and is not counted.
      for (const name of (r % 2 === 0 ? ['plain', 'insured'] : ['insured', 'plain']) as (keyof typeof inputs)[]) {
        const out = join(work, `${name}-${r}`);
        const run = await runReportCommand(['run', inputs[name], '--out', out, '--formats', FORMATS, '--as-of', AS_OF, '--db', 'off'], env, { compiled: true });
        if (run.exit_code !== 0) throw new Error(`${name} run exited ${run.exit_code}`);
        if (name === 'insured' && r === 0 && FORMATS.split(',').includes('json')) assertReviewed(out);
        rmSync(out, { recursive: true, force: true });
        if (r > 0) runs[name].push(run);
        log(`round ${r} ${name}: ${round(run.seconds, 2)} s, ${run.cpu_s} s CPU`);
      }
    }
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
  load.push(loadavg()[0]!);
  const cpu = (name: keyof typeof inputs) => median(runs[name].map((r) => r.cpu_s ?? NaN));
  const wall = (name: keyof typeof inputs) => median(runs[name].map((r) => r.seconds));
  const cpuRatios = runs.insured.map((r, i) => (r.cpu_s ?? NaN) / (runs.plain[i]!.cpu_s ?? NaN));
  console.log(
    JSON.stringify({
      bench: 'insurance',
      portfolios: PORTFOLIOS,
      holdings: HOLDINGS,
      formats: FORMATS,
      rounds: ROUNDS,
      load_average: load.map((l) => round(l, 1)),
      without_cover: { cpu_s: cpu('plain'), wall_s: round(wall('plain'), 2) },
      with_cover: { cpu_s: cpu('insured'), wall_s: round(wall('insured'), 2) },
      // The median of each round's own ratio: the machine's speed drifts across a run, and a round's two legs run side by side in time.
      cpu_ratio: round(median(cpuRatios)),
      cpu_ratio_90: medianInterval(cpuRatios).map((x) => round(x)),
      wall_ratio: round(median(runs.insured.map((r, i) => r.seconds / runs.plain[i]!.seconds))),
      goal: '≤ 1.05× the time',
    }),
  );
});
