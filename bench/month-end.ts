/**
 * Month-end end to end: `svc-report run` in its own process against the sandbox in its own
 * process. Two modes:
 *
 *   npx tsx bench/month-end.ts [--portfolios 1000] [--holdings 50] [--formats xlsx,csv,json,pdf]
 *     scale: 1,000 portfolios of 50 holdings with limits lifted, vs one portfolio's run (the
 *     baseline, same process): how a thousand-client month-end scales against single runs.
 *
 *   npx tsx bench/month-end.ts --latency [--only a|b] [--formats …] [--tier enterprise]
 *     a remote service: the sandbox with `--faults latency=150-250`, real 60-second minutes.
 *     (a) one portfolio of 6,000 holdings on a 1,000-a-minute account;
 *     (b) 60 portfolios × 25 holdings, all enrichment, on a 3,000-a-minute account.
 *     Each run as is (the window sized by Little's law) and with --concurrency 1 (the baseline,
 *     the job as it was: one call at a time), on separate accounts of one sandbox. Figures come
 *     from the sandbox's own request log: calls a minute ÷ the account's ceiling, 429s, every
 *     holding valued and scored exactly once.
 *
 * Prints one JSON line last.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSandbox, type SandboxProcess } from './support/sandbox-process';
import { callFigures, lastCallAt, readRequestLog, round } from './support/request-log';
import { holdingsCsv, runReportCommand } from './support/report-run';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const FORMATS = arg('--formats', 'xlsx,csv,json,pdf');
/** `--tier enterprise`: runs as the README suggests; the service's stated limit must still govern. */
const TIER = arg('--tier', '');
const work = mkdtempSync(join(tmpdir(), 'bench-month-end-'));
const logFile = join(work, 'requests.jsonl');

interface Account {
  client_id: string;
  client_secret: string;
  tier: 'enterprise';
  per_minute?: number;
  per_day?: number;
}
// Throwaway accounts on a local sandbox; secrets made per run so none is written in code.
const account = (client_id: string, limits: Partial<Account> = {}): Account => ({ client_id, client_secret: `bench-${randomUUID()}`, tier: 'enterprise', ...limits });

async function withSandbox<T>(accounts: Account[], extra: string[], body: (sb: SandboxProcess) => Promise<T>): Promise<T> {
  const accountsFile = join(work, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify(accounts));
  const sb = await spawnSandbox(['--accounts', accountsFile, '--log', logFile, ...extra]);
  try {
    return await body(sb);
  } finally {
    await sb.close();
  }
}

/** `svc-report run` of `portfolios` × `holdings` for one account; extra flags appended. */
async function runFor(sb: SandboxProcess, who: Account, label: string, portfolios: number, holdings: number, extra: string[] = []) {
  const input = join(work, `${label}.csv`);
  const out = join(work, `${label}-out`);
  writeFileSync(input, holdingsCsv(portfolios, holdings));
  const run = await runReportCommand(['run', input, '--out', out, '--formats', FORMATS, ...(TIER ? ['--tier', TIER] : []), ...extra], { SVC_BASE_URL: sb.url, SVC_CLIENT_ID: who.client_id, SVC_CLIENT_SECRET: who.client_secret });
  return { ...run, files: readdirSync(out).filter((f) => !f.startsWith('.')).length };
}

async function scale() {
  const PORTFOLIOS = Number(arg('--portfolios', '1000'));
  const HOLDINGS = Number(arg('--holdings', '50'));
  const bench = account('bench', { per_minute: 10_000_000, per_day: 1_000_000_000 });
  return withSandbox([bench], [], async (sb) => {
    const single = await runFor(sb, bench, 'single', 1, HOLDINGS);
    process.stderr.write(`one portfolio of ${HOLDINGS}: ${single.seconds.toFixed(2)} s\n`);
    const many = await runFor(sb, bench, 'many', PORTFOLIOS, HOLDINGS);
    process.stderr.write(`${PORTFOLIOS} portfolios of ${HOLDINGS}: ${many.seconds.toFixed(1)} s\n`);
    return {
      bench: 'month-end',
      portfolios: PORTFOLIOS,
      holdings_per_portfolio: HOLDINGS,
      formats: FORMATS,
      seconds: round(many.seconds, 1),
      ms_per_portfolio: Math.round((many.seconds * 1000) / PORTFOLIOS),
      holdings_per_s: Math.round((PORTFOLIOS * HOLDINGS) / many.seconds),
      peak_rss_mb: many.peak_rss_mb,
      files_written: many.files,
      exit_code: many.exit_code,
      baseline_single_portfolio_s: round(single.seconds, 2),
      baseline_peak_rss_mb: single.peak_rss_mb,
      // Below 1: the thousand-portfolio run beats a thousand separate runs (start-up, token, sandbox check paid once).
      ratio_vs_single_runs: round(many.seconds / (PORTFOLIOS * single.seconds)),
    };
  });
}

const CASES = {
  a: { name: 'one portfolio of 6,000 holdings, 1,000 calls a minute', portfolios: 1, holdings: 6000, perMinute: 1000 },
  b: { name: '60 portfolios × 25 holdings with enrichment, 3,000 calls a minute', portfolios: 60, holdings: 25, perMinute: 3000 },
} as const;

async function latency() {
  const only = arg('--only', 'ab');
  const cases = (Object.keys(CASES) as (keyof typeof CASES)[]).filter((k) => only.includes(k));
  const warmUp = account('bench-warm-up', { per_minute: 100_000 });
  const accounts = [warmUp, ...cases.flatMap((k) => [account(`bench-${k}`, { per_minute: CASES[k].perMinute }), account(`bench-${k}-seq`, { per_minute: CASES[k].perMinute })])];
  const byId = (id: string) => accounts.find((a) => a.client_id === id)!;
  return withSandbox(accounts, ['--faults', 'latency=150-250'], async (sb) => {
    // A real service is warm: the sandbox's first valuations (market model, catalogue) would otherwise count as a gap in the first run.
    await runFor(sb, warmUp, 'warm-up', 2, 100, ['--formats', 'json']);
    const results: Record<string, unknown> = {};
    for (const k of cases) {
      const c = CASES[k];
      const measure = async (id: string, extra: string[]) => {
        const run = await runFor(sb, byId(id), id, c.portfolios, c.holdings, extra);
        await new Promise((r) => setTimeout(r, 200)); // the sandbox's last log lines
        const log = readRequestLog(logFile);
        const figures = callFigures(log, id, c.perMinute, 60_000);
        const holdings = c.portfolios * c.holdings;
        return {
          ...figures,
          wall_s: round(run.seconds, 1),
          // After the last call: writing the reports (every portfolio's, once all are valued).
          writing_s: round((run.endedAt - lastCallAt(log, id)) / 1000, 1),
          exit_code: run.exit_code,
          files_written: run.files,
          peak_rss_mb: run.peak_rss_mb,
          cpu_s: run.cpu_s,
          every_holding_valued_once: figures.assets_valued === holdings,
          every_holding_scored_once: figures.assets_scored === holdings,
        };
      };
      const overlapped = await measure(`bench-${k}`, []);
      process.stderr.write(`(${k}) ${c.name}: ${JSON.stringify(overlapped)}\n`);
      const sequential = await measure(`bench-${k}-seq`, ['--concurrency', '1']);
      process.stderr.write(`(${k}) baseline --concurrency 1: ${JSON.stringify(sequential)}\n`);
      results[k] = {
        case: c.name,
        ceiling_per_minute: c.perMinute,
        overlapped,
        baseline_concurrency_1: sequential,
        speedup_vs_baseline: round(sequential.wall_s / overlapped.wall_s, 2),
        goal_met: overlapped.ratio_of_ceiling >= 0.95 && overlapped.responses_429 === 0 && overlapped.every_holding_valued_once && overlapped.every_holding_scored_once,
      };
    }
    return { bench: 'month-end-latency', faults: 'latency=150-250', formats: FORMATS, tier: TIER || null, ...results, load_average_1m: round(loadavg()[0]!, 2) };
  });
}

try {
  console.log(JSON.stringify(process.argv.includes('--latency') ? await latency() : await scale()));
} finally {
  rmSync(work, { recursive: true, force: true });
}
