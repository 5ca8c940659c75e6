import { Option } from 'commander';
import { Readiness, startOpsServer, type Log, type OpsServer } from '../../src/ops';
import { UsageError } from '../run/exit-codes';
import { ReportMetrics } from './report-metrics';
import type { RunningWorker } from '../queue/worker';

/** The longest a finished run waits for Prometheus's last scrape. */
const MAX_FINAL_WAIT_MS = 5 * 60_000;

function port(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new UsageError(`${name} must be a port number (0 to 65535).`);
    return n;
  };
}

export const metricsPortOption = () => new Option('--metrics-port <n>', "serve Prometheus's /metrics on this port while the command runs (off by default)").argParser(port('--metrics-port'));
export const metricsHostOption = () => new Option('--metrics-host <address>', 'the address --metrics-port listens on (default 127.0.0.1: metrics are for the firm\'s monitoring)');
export const healthPortOption = () => new Option('--health-port <n>', 'serve /healthz, /readyz and /metrics on this port (off by default)').argParser(port('--health-port'));
export const healthHostOption = () => new Option('--health-host <address>', 'the address --health-port listens on (default 127.0.0.1)');

/**
 * A long `run` (or `schedule`) with --metrics-port: its series on a listener of their own. At
 * the end, `finish` waits for one more scrape when Prometheus has been scraping (so the final
 * figures reach it: a pull cannot fetch them from a process that has exited), for at most twice
 * the interval seen between scrapes; never when nobody scraped.
 */
export async function runMetrics(o: { metricsPort?: number; metricsHost?: string }, log: Log): Promise<{ metrics: ReportMetrics; finish(signal: AbortSignal): Promise<void> } | undefined> {
  if (o.metricsPort === undefined) return undefined;
  const metrics = new ReportMetrics(log);
  const server = await listen(() => startOpsServer({ metrics }, { port: o.metricsPort!, host: o.metricsHost }), '--metrics-port');
  log.info(`Metrics for Prometheus on ${server.url}/metrics.`);
  return {
    metrics,
    finish: async (signal) => {
      const { at, intervalMs } = server.lastScrape();
      if (at !== undefined && !signal.aborted) {
        const wait = Math.min(MAX_FINAL_WAIT_MS, 2 * (intervalMs ?? 15_000) + 1_000);
        log.info(`Waiting up to ${Math.ceil(wait / 1000)} s for Prometheus to scrape the final figures.`);
        const aborted = new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true }));
        await Promise.race([server.nextScrape(wait), aborted]);
      }
      await server.close();
    },
  };
}

/** `worker --health-port`: health, readiness (the service, Redis) and the worker's series on one listener. */
export async function workerHealth(o: { healthPort?: number; healthHost?: string }, log: Log, worker: RunningWorker, metrics: ReportMetrics): Promise<{ stopping(): void; close(): Promise<void> } | undefined> {
  if (o.healthPort === undefined) return undefined;
  const readiness = new Readiness(worker.readinessChecks, { scrub: log.scrub });
  readiness.register(metrics.registry);
  const server = await listen(() => startOpsServer({ metrics, readiness }, { port: o.healthPort!, host: o.healthHost }), '--health-port');
  log.info(`Health on ${server.url}/healthz and /readyz; metrics on ${server.url}/metrics.`);
  return { stopping: () => readiness.shuttingDown(), close: () => server.close() };
}

/** A port in use or an address not on this machine is a setting to correct (exit 2). */
async function listen(start: () => Promise<OpsServer>, option: string): Promise<OpsServer> {
  try {
    return await start();
  } catch (e) {
    throw new UsageError(`${option}: cannot listen (${(e as Error).message}).`);
  }
}
