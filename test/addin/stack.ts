import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, DEMO_ACCOUNTS, type SandboxOptions } from '../../src/sandbox';
import { startAddinHost, type AddinHostOptions, type RunningAddinHost } from '../../addin/server/host';
import type { TierName } from '../../src/wire';

export interface SandboxLogLine {
  t: string;
  client_id: string;
  method: string;
  path: string;
  status: number;
  items: number;
}

export interface Stack {
  sandboxUrl: string;
  host: RunningAddinHost;
  account: { client_id: string; client_secret: string; tier: TierName };
  /** The sandbox's request log so far. */
  log(): Promise<SandboxLogLine[]>;
  close(): Promise<void>;
}

/** The embedded sandbox and the add-in host in front of it (plain HTTP on 127.0.0.1, as tests may). */
export async function startStack(opts: { tier?: TierName; sandbox?: SandboxOptions; host?: Partial<AddinHostOptions> } = {}): Promise<Stack> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-addin-test-'));
  const logFile = path.join(dir, 'sandbox.jsonl');
  const sandbox = await startSandbox({ port: 0, quiet: true, logFile, ...opts.sandbox });
  const account = DEMO_ACCOUNTS.find((a) => a.tier === (opts.tier ?? 'enterprise'))!;
  const host = await startAddinHost({
    port: 0,
    insecureHttp: true,
    // No CDN is reachable here: the host serves its npm copy of office.js, as for an air-gapped firm.
    officeJs: 'local',
    service: { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: account.tier, label: 'test sandbox', sandbox: true, limits: { minuteMs: opts.sandbox?.minuteMs, dayMs: opts.sandbox?.dayMs } },
    ...opts.host,
  });
  return {
    sandboxUrl: sandbox.url,
    host,
    account: { client_id: account.client_id, client_secret: account.client_secret, tier: account.tier },
    async log() {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as SandboxLogLine);
    },
    async close() {
      await host.close();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
