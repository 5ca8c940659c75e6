/**
 * What observability costs the add-in host: its throughput with JSON-line logs and metrics on
 * (logs at the default level, every series recorded, /metrics scraped every 5 s: three times as
 * often as deploy/prometheus/prometheus.yml asks) against
 * both off (no log, no series), measured in the same run on the same load (goal: ≥ 0.95);
 * and, for the record, with logs at debug, where every request, cache hits included, is a line.
 *
 * Each host runs in its own process (bench/support/host-process.ts); the load is the add-in's
 * cell traffic at its heaviest for the host: batches of 50 assets from ten sheets, answered
 * from the host's cache after a warm-up, over 16 keep-alive connections, so the host's own
 * work (validation, cache, JSON, and the instrumentation) is all that is measured. The three
 * hosts run side by side; bursts of requests rotate between them so a neighbour's load falls
 * on each alike.
 *
 * Throughput is measured as what a CPU-bound server's throughput is the inverse of: the host
 * process's CPU time per request (process.cpuUsage over IPC: user + system, every thread, in
 * µs), so a round's ratio is off's CPU per request over on's, and the figure is the median of
 * the rounds' ratios. Wall-clock requests per second are printed too, but on a shared 2-core
 * machine they vary by ±6% between identical hosts (three hosts with everything off gave
 * 0.94–1.05), more than the effect to resolve.
 *
 *   npx tsx bench/host-observability.ts               # progress on stderr, ONE JSON line last on stdout
 *   npx tsx bench/host-observability.ts --calibrate   # the three hosts all off: the method's own noise (ratios near 1)
 *   npx tsx bench/host-observability.ts --scrape-ms 1000   # scraped every second instead of every 5 s
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Agent, request } from 'node:http';
import { ROOT } from '../fixtures/commands';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../addin/src/shared/host-connection';

const CONNECTIONS = 16;
const BURST = 400;
const ROUNDS = 21;
const MODES = ['off', 'on', 'debug'] as const;
const scrapeArg = process.argv.indexOf('--scrape-ms');
const SCRAPE_MS = scrapeArg > 0 ? Number(process.argv[scrapeArg + 1]) : 5_000;
type Mode = (typeof MODES)[number];
const SHEETS = Array.from({ length: 10 }, (_, s) => JSON.stringify({ assets: Array.from({ length: 50 }, (_, i) => ({ segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: `126610LN-${s}`, year: 1950 + i })) }));

interface HostProcess {
  child: ChildProcess;
  url: string;
  metrics: string | null;
}

function startHost(mode: Mode): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/host-process.ts', mode], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const line = err.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, ...(JSON.parse(line) as { url: string; metrics: string | null }) });
    });
    child.once('exit', (code) => reject(new Error(`host exited ${code}: ${err}`)));
  });
}

function post(agent: Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The host's CPU time so far (user + system, every thread), in seconds, as it reports it. */
function cpuSeconds(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const u = m as { user: number; system: number };
      resolve((u.user + u.system) / 1e6);
    });
    child.send('cpu');
  });
}

/** A host under load: warmed up, then driven in bursts; its time and CPU under load accumulate. */
function driver(host: HostProcess) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = `${host.url}/api/v1/valuations/batch`;
  let seconds = 0;
  let cpu = 0;
  let requests = 0;
  let lastBurstCpuMs = 0;
  const drive = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < count) {
          const i = next++;
          const status = await post(agent, url, SHEETS[i % SHEETS.length]!);
          if (status !== 200) throw new Error(`status ${status}`);
        }
      }),
    );
  };
  return {
    /** Every sheet once (its 50 assets go upstream once), then cached traffic until the JIT has settled. */
    async warm() {
      for (const sheet of SHEETS) if ((await post(agent, url, sheet)) !== 200) throw new Error('warm-up failed');
      await drive(2_000);
    },
    async burst() {
      const cpuBefore = await cpuSeconds(host.child);
      const started = performance.now();
      await drive(BURST);
      seconds += (performance.now() - started) / 1000;
      const used = (await cpuSeconds(host.child)) - cpuBefore;
      cpu += used;
      lastBurstCpuMs = (used * 1000) / BURST;
      requests += BURST;
    },
    /** CPU ms per request in the last burst. */
    lastBurst: () => lastBurstCpuMs,
    throughput: () => requests / seconds,
    cpuMsPerRequest: () => (cpu * 1000) / requests,
    close: () => agent.destroy(),
  };
}

async function stop(host: HostProcess): Promise<void> {
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill('SIGTERM');
  await exited;
}

const load = [loadavg()[0]!];
const calibrate = process.argv.includes('--calibrate');
const hosts = Object.fromEntries(await Promise.all(MODES.map(async (m) => [m, await startHost(calibrate ? 'off' : m)] as const))) as Record<Mode, HostProcess>;
const drivers = Object.fromEntries(MODES.map((m) => [m, driver(hosts[m])])) as Record<Mode, ReturnType<typeof driver>>;
for (const m of MODES) await drivers[m].warm();
// Prometheus's part: the instrumented hosts are scraped throughout.
const scraper = setInterval(() => {
  for (const m of MODES) if (hosts[m].metrics) void fetch(hosts[m].metrics!).then((r) => r.text());
}, SCRAPE_MS);
const ratios: Record<'on' | 'debug', number[]> = { on: [], debug: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < MODES.length; k++) await drivers[MODES[(round + k) % MODES.length]!].burst();
  for (const m of ['on', 'debug'] as const) ratios[m].push(drivers.off.lastBurst() / drivers[m].lastBurst());
  process.stderr.write(`round ${round + 1}: ${MODES.map((m) => `${m} ${drivers[m].lastBurst().toFixed(3)}`).join(', ')} ms CPU/request\n`);
}
clearInterval(scraper);
for (const m of MODES) {
  drivers[m].close();
  await stop(hosts[m]);
}
load.push(loadavg()[0]!);
const [off, on, debug] = MODES.map((m) => drivers[m].cpuMsPerRequest()) as [number, number, number];
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const [wallOff, wallOn, wallDebug] = MODES.map((m) => drivers[m].throughput()) as [number, number, number];
const round2 = (x: number) => Math.round(x * 1000) / 1000;
console.log(
  JSON.stringify({
    benchmark: calibrate ? 'host-observability --calibrate (all three off)' : 'host-observability',
    requests_per_mode: BURST * ROUNDS,
    connections: CONNECTIONS,
    scrape_every_ms: SCRAPE_MS,
    batch_items: 50,
    cpu_ms_per_request_off: round2(off),
    cpu_ms_per_request_on: round2(on),
    ratio: round2(median(ratios.on)),
    goal: 0.95,
    ratio_overall: round2(off / on),
    cpu_ms_per_request_debug_logs: round2(debug),
    ratio_debug_logs: round2(median(ratios.debug)),
    wall_requests_per_s: { off: Math.round(wallOff), on: Math.round(wallOn), debug_logs: Math.round(wallDebug) },
    load_average: load.map((l) => Math.round(l * 10) / 10),
  }),
);
