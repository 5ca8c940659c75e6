/**
 * The pane's refresh estimate against the refresh itself (issue 13): the starter account (60
 * calls a window, 5,000 a day) in compressed windows, the add-in host in front of the sandbox,
 * sheets of growing size calculated by the add-in's own functions through a runtime that talks to
 * the host as the pane's does. The measured refresh runs from the sandbox log's first spending
 * request to its last; the estimate is what the pane shows before refreshing.
 *
 *   npx tsx bench/refresh-budget.ts [--minute-ms 3000]
 *
 * Prints one line per sheet, then one JSON line with every figure last.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../src/client';
import { DEMO_ACCOUNTS } from '../src/sandbox';
import { spawnSandbox } from './support/sandbox-process';
import { SEGMENT_IDS } from '../src/wire';
import { startAddinHost } from '../addin/server/host';
import type { AccountBudget } from '../addin/contract/refresh-budget';
import { AddinRuntime, setRuntime } from '../addin/src/shared/runtime';
import { clientBackend } from '../addin/src/shared/client-backend';
import { estimateRefresh, planRefresh } from '../addin/src/taskpane/budget-plan';
import { calculateSheet, refreshSheet } from '../fixtures/calculate-sheet';
import { realCatalogueIds } from '../fixtures/issued-ids';

const arg = process.argv.indexOf('--minute-ms');
const MINUTE_MS = arg > 0 ? Number(process.argv[arg + 1]) : 3_000;

/** Sheets: assets (each in three currencies and scored), breakdowns, signals. */
const SHEETS = [
  { assets: 100, factors: 10, segments: 5 },
  { assets: 300, factors: 40, segments: 10 },
  { assets: 300, factors: 150, segments: 10 },
];

interface Line {
  time: string;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-refresh-bench-'));
  const logFile = path.join(dir, 'sandbox.jsonl');
  // The sandbox in its own process, as the service is (sharing this event loop would slow the refresh measured).
  const sandbox = await spawnSandbox(['--minute-ms', String(MINUTE_MS), '--log', logFile]);
  const starter = DEMO_ACCOUNTS.find((a) => a.tier === 'starter')!;
  const ids = await realCatalogueIds(sandbox.url, DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!, 300);
  const log = async () => (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line & { t: string; path: string; client_id: string });
  const results: Record<string, unknown>[] = [];
  try {
    for (const [i, s] of SHEETS.entries()) {
      // A fresh host and browser-side client per sheet: empty caches, as after the pane's Refresh.
      const host = await startAddinHost({ port: 0, insecureHttp: true, service: { baseUrl: sandbox.url, clientId: starter.client_id, clientSecret: starter.client_secret, tier: 'starter', limits: { minuteMs: MINUTE_MS } } });
      try {
        const model = refreshSheet(ids.slice(0, s.assets), SEGMENT_IDS.slice(0, s.segments), s.factors);
        const plan = planRefresh([model]);
        const account = (await (await fetch(`${host.url}/addin/budget`, { headers: { 'x-svc-addin': '1' } })).json()) as AccountBudget;
        const estimate = estimateRefresh(plan, account);
        const client = new ServiceClient({ baseUrl: `${host.url}/api/v1`, headers: { 'x-svc-addin': '1' }, tokenProvider: async () => undefined, limits: { minuteMs: MINUTE_MS }, rateLimitKey: `refresh-bench-${i}` });
        setRuntime(new AddinRuntime(clientBackend(client)));
        const before = (await log()).length;
        await calculateSheet(model);
        const spent = (await log()).slice(before).filter((l) => l.client_id === starter.client_id && !l.path.startsWith('/v1/auth'));
        const measured = (Date.parse(spent.at(-1)!.t) - Date.parse(spent[0]!.t)) / 1000;
        const r = { cells: plan.cells, calls_counted: plan.calls, calls_sent: spent.length, batch_calls: plan.batchCalls, estimate_s: Number(estimate.seconds!.toFixed(3)), measured_s: measured, ratio: Number((estimate.seconds! / measured).toFixed(3)) };
        results.push(r);
        console.log(`${r.cells} cells: ${r.calls_counted} calls counted, ${r.calls_sent} sent; estimate ${r.estimate_s} s, measured ${r.measured_s} s, ratio ${r.ratio}`);
      } finally {
        setRuntime(undefined);
        await host.close();
        // The next sheet starts with the account's windows empty of this one's calls.
        await new Promise((resolve) => setTimeout(resolve, 2 * MINUTE_MS));
      }
    }
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ bench: 'refresh-budget', minute_ms: MINUTE_MS, per_minute: 60, sheets: results }));
}

await main();
