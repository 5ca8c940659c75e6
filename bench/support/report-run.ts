import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ROOT, sourceCommand } from '../../fixtures/commands';

export interface ReportRun {
  seconds: number;
  /** When the command ended, ms since the epoch (to tell writing time from calling time). */
  endedAt: number;
  peak_rss_mb: number | null;
  /** CPU the command used (user + system), seconds: on a shared machine, what it needed of the cores it got. */
  cpu_s: number | null;
  exit_code: number;
  stderr: string;
}

/**
 * One `svc-report` in its own process, timed, with its peak RSS from GNU time. `compiled`: the
 * built command users run (bin/svc-report.js over dist/; the caller builds first), instead of the
 * source through tsx, whose transpiling of every module each process and worker loads would be
 * counted as the feature's cost.
 */
export function runReportCommand(args: string[], env: NodeJS.ProcessEnv, options: { compiled?: boolean } = {}): Promise<ReportRun> {
  const started = performance.now();
  const command = options.compiled ? [join(ROOT, 'bin/svc-report.js')] : sourceCommand('svc-report');
  const child = spawn('/usr/bin/time', ['-f', 'MAXRSS_KB %M CPU_S %U %S', process.execPath, ...command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rss = /MAXRSS_KB (\d+)/.exec(stderr);
      const cpu = /CPU_S ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0) process.stderr.write(stderr.slice(-2000));
      resolve({ seconds, endedAt: Date.now(), peak_rss_mb: rss ? Math.round(Number(rss[1]) / 1024) : null, cpu_s: cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) * 10) / 10 : null, exit_code: code ?? -1, stderr });
    });
  });
}

// Source rows: the shipped example holdings (real assets, all segments), cycled.
const example = parse(readFileSync(join(ROOT, 'examples/meridian-wealth-clients.csv')), { columns: false }) as string[][];
const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A holdings csv of `portfolios` portfolios of `holdings` each (the examples' rows, cycled; a portfolio column splits it). */
export function holdingsCsv(portfolios: number, holdings: number): string {
  const [header, ...rows] = example;
  const lines = [header!.map(quote).join(',')];
  let k = 0;
  for (let p = 0; p < portfolios; p++) {
    for (let h = 0; h < holdings; h++) {
      const row = [...rows[k++ % rows.length]!];
      row[0] = `Client ${String(p + 1).padStart(4, '0')}`;
      lines.push(row.map(quote).join(','));
    }
  }
  return lines.join('\r\n') + '\r\n';
}
