import type { AddressInfo } from 'node:net';
import { DEMO_ACCOUNTS, resolveAccount, validateAccounts, type AccountConfig } from './accounts';
import { createMarket } from './market';
import { DEFAULT_STORE_LIMIT } from './server/account-store';
import { parseFaults, validateFaults, type FaultConfig } from './server/faults';
import { RequestLog } from './server/request-log';
import { BASE_PATH, createSandboxServer } from './server/server';

export { DEMO_ACCOUNTS, loadAccountsFile, type AccountConfig } from './accounts';
export { parseFaults, type FaultConfig } from './server/faults';
export { MAX_BODY_BYTES } from './server/body';
export type { LogLine } from './server/request-log';

export interface SandboxOptions {
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: the three demo accounts. */
  accounts?: AccountConfig[];
  /** Access token lifetime. Default 3600. */
  tokenTtlSeconds?: number;
  /** Rate-limit window lengths. Defaults 60 000 and 86 400 000. */
  minuteMs?: number;
  dayMs?: number;
  /** `error=0.1,drop=0.05,latency=5-50,r429=0.02` or the same as an object. */
  faults?: FaultConfig | string;
  /** Seed of the fault sequence. Default 1. */
  seed?: number;
  /** Seed of the market model; default: the model's own, so every sandbox shows the same market. */
  marketSeed?: number;
  /** JSONL request log: {t, client_id, method, path, status, items}. */
  logFile?: string;
  /** The sandbox's clock for the market day, generated_at and validity. Tokens use the real clock; rate windows `clockMs`. */
  now?: () => Date;
  /** Epoch ms for the rate windows and the failed-secret slow-down (default Date.now): tests inject one to step through windows and locks. Token expiry uses the real clock. */
  clockMs?: () => number;
  /** Silence the report of unexpected server errors on stderr. */
  quiet?: boolean;
  /** Records kept per kind per account (default 100 000). */
  storeLimit?: number;
}

export interface RunningSandbox {
  /** http://HOST:PORT/v1 */
  url: string;
  close(): Promise<void>;
  accounts: AccountConfig[];
  /**
   * Changes an account's limits while it runs, as the service's operator may for an Enterprise
   * account: the next answer states and applies them (the current window's count is kept).
   */
  setLimits(clientId: string, limits: { perMinute?: number; perDay?: number }): void;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const accounts = opts.accounts ? validateAccounts(opts.accounts) : DEMO_ACCOUNTS.map((a) => ({ ...a }));
  const faults = typeof opts.faults === 'string' ? parseFaults(opts.faults) : (opts.faults ?? {});
  validateFaults(faults);
  const tokenTtlSeconds = positiveInt(opts.tokenTtlSeconds ?? 3600, 'tokenTtlSeconds');
  const minuteMs = positiveInt(opts.minuteMs ?? 60_000, 'minuteMs');
  const dayMs = positiveInt(opts.dayMs ?? 86_400_000, 'dayMs');
  const seed = Math.trunc(opts.seed ?? 1);
  const host = opts.host ?? '127.0.0.1';
  const log = opts.logFile ? new RequestLog(opts.logFile) : undefined;

  const resolved = accounts.map(resolveAccount);
  const server = createSandboxServer({
    accounts: resolved,
    market: createMarket(opts.marketSeed === undefined ? {} : { seed: opts.marketSeed }),
    tokenTtlSeconds,
    minuteMs,
    dayMs,
    faults,
    seed,
    storeLimit: opts.storeLimit ?? DEFAULT_STORE_LIMIT,
    now: opts.now ?? (() => new Date()),
    clockMs: opts.clockMs ?? Date.now,
    log,
    onInternalError: opts.quiet ? undefined : (e) => console.error('[svc-sandbox] internal error:', e),
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8787, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}${BASE_PATH}`,
    accounts,
    setLimits(clientId, limits) {
      const account = resolved.find((a) => a.clientId === clientId);
      if (!account) throw new Error(`no account '${clientId}' in this sandbox`);
      if (limits.perMinute !== undefined) account.perMinute = positiveInt(limits.perMinute, 'perMinute');
      if (limits.perDay !== undefined) account.perDay = positiveInt(limits.perDay, 'perDay');
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => log?.close());
      return closing;
    },
  };
}

function positiveInt(v: number, name: string): number {
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive whole number, got ${v}`);
  return v;
}
