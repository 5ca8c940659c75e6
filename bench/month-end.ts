/**
 * Month-end end to end: `svc-report run` over 1,000 portfolios of 50 holdings (one csv split by
 * its portfolio column) against the sandbox with limits lifted, all four formats. The baseline,
 * measured in the same run, is the same command over one portfolio of 50 holdings: the ratio
 * says how a thousand-client month-end scales against a thousand single runs.
 *
 *   npx tsx bench/month-end.ts [--portfolios 1000] [--holdings 50] [--formats xlsx,csv,json,pdf]
 *
 * Prints one JSON line last.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { spawnSandbox } from './support/sandbox-process';
import { sourceCommand } from '../fixtures/commands';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const PORTFOLIOS = Number(arg('--portfolios', '1000'));
const HOLDINGS = Number(arg('--holdings', '50'));
const FORMATS = arg('--formats', 'xlsx,csv,json,pdf');
const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bench-month-end-'));

// Source rows: the shipped example holdings (real assets, all segments), cycled.
const example = parse(readFileSync(join(root, 'examples/meridian-wealth-clients.csv')), { columns: false }) as string[][];
const [header, ...rows] = example;
const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
function holdingsCsv(portfolios: number): string {
  const lines = [header!.map(quote).join(',')];
  let k = 0;
  for (let p = 0; p < portfolios; p++) {
    for (let h = 0; h < HOLDINGS; h++) {
      const row = [...rows[k++ % rows.length]!];
      row[0] = `Client ${String(p + 1).padStart(4, '0')}`;
      lines.push(row.map(quote).join(','));
    }
  }
  return lines.join('\r\n') + '\r\n';
}

const accountsFile = join(work, 'accounts.json');
const clientSecret = `bench-${randomUUID()}`; // a throwaway account on a local sandbox
writeFileSync(accountsFile, JSON.stringify([{ client_id: 'bench', client_secret: clientSecret, tier: 'enterprise', per_minute: 10_000_000, per_day: 1_000_000_000 }]));
const sandbox = await spawnSandbox(['--accounts', accountsFile]);

interface Run {
  seconds: number;
  peak_rss_mb: number | null;
  files: number;
  exit_code: number;
}

/** One `svc-report run` in its own process, timed, with its peak RSS from GNU time. */
function runReport(label: string, portfolios: number): Promise<Run> {
  const input = join(work, `${label}.csv`);
  const out = join(work, `${label}-out`);
  writeFileSync(input, holdingsCsv(portfolios));
  const cli = [...sourceCommand('svc-report'), 'run', input, '--out', out, '--formats', FORMATS];
  const env = { ...process.env, SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: 'bench', SVC_CLIENT_SECRET: clientSecret };
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'MAXRSS_KB %M', process.execPath, ...cli], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rss = /MAXRSS_KB (\d+)/.exec(stderr);
      if (code !== 0) process.stderr.write(stderr.slice(-2000));
      resolve({ seconds, peak_rss_mb: rss ? Math.round(Number(rss[1]) / 1024) : null, files: readdirSync(out).filter((f) => !f.startsWith('.')).length, exit_code: code ?? -1 });
    });
  });
}

try {
  const single = await runReport('single', 1);
  process.stderr.write(`one portfolio of ${HOLDINGS}: ${single.seconds.toFixed(2)} s\n`);
  const many = await runReport('many', PORTFOLIOS);
  process.stderr.write(`${PORTFOLIOS} portfolios of ${HOLDINGS}: ${many.seconds.toFixed(1)} s\n`);
  const holdings = PORTFOLIOS * HOLDINGS;
  console.log(
    JSON.stringify({
      bench: 'month-end',
      portfolios: PORTFOLIOS,
      holdings_per_portfolio: HOLDINGS,
      formats: FORMATS,
      seconds: Number(many.seconds.toFixed(1)),
      ms_per_portfolio: Math.round((many.seconds * 1000) / PORTFOLIOS),
      holdings_per_s: Math.round(holdings / many.seconds),
      peak_rss_mb: many.peak_rss_mb,
      files_written: many.files,
      exit_code: many.exit_code,
      baseline_single_portfolio_s: Number(single.seconds.toFixed(2)),
      baseline_peak_rss_mb: single.peak_rss_mb,
      // Below 1: the thousand-portfolio run beats a thousand separate runs (start-up, token, sandbox check paid once).
      ratio_vs_single_runs: Number((many.seconds / (PORTFOLIOS * single.seconds)).toFixed(3)),
    }),
  );
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
