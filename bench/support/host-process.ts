/**
 * One add-in host for bench/host-observability.ts, in a process of its own (as `addin:serve`
 * runs it), with the embedded sandbox in the same process for the cache's warm-up:
 *
 *   tsx bench/support/host-process.ts on      # JSON-line logs (info) on stdout, metrics on their own listener
 *   tsx bench/support/host-process.ts debug   # the same with every request a log line (cache hits are debug lines)
 *   tsx bench/support/host-process.ts off     # no log, no series recorded
 *
 * Prints one line on stderr when listening: {"url": …, "metrics": … | null}. Over its IPC channel
 * it answers "cpu" with its CPU time so far (process.cpuUsage: every thread, in µs).
 */
import { randomUUID } from 'node:crypto';
import { startAddinHost } from '../../addin/server/host';
import { createLog, startOpsServer } from '../../src/ops';
import { startSandbox } from '../../src/sandbox';

const mode = process.argv[2];
const on = mode === 'on' || mode === 'debug';
const secret = `bench-ops-${randomUUID()}`;
const sandbox = await startSandbox({ port: 0, quiet: true, accounts: [{ client_id: 'bench-ops', client_secret: secret, tier: 'enterprise', per_minute: 10_000_000, per_day: 100_000_000 }] });
const log = on ? createLog({ format: 'json', level: mode === 'debug' ? 'debug' : 'info', component: 'addin-host', stream: 'stdout', secrets: [secret] }) : undefined;
const host = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service: { baseUrl: sandbox.url, clientId: 'bench-ops', clientSecret: secret }, log, metrics: on });
const metrics = on ? await startOpsServer({ metrics: host.metrics }, { port: 0 }) : undefined;
process.stderr.write(`${JSON.stringify({ url: host.url, metrics: metrics ? `${metrics.url}/metrics` : null })}\n`);
process.on('message', (m) => {
  if (m === 'cpu') process.send!(process.cpuUsage());
});
process.once('SIGTERM', () => {
  void (async () => {
    await metrics?.close();
    await host.close();
    await sandbox.close();
    process.disconnect?.();
    process.exit(0);
  })();
});
