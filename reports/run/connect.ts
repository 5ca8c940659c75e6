import { ServiceClient } from '../../src/client';
import type { AccountConfig, RunningSandbox } from '../../src/sandbox';
import type { TierName } from '../../src/wire';
import type { ServiceSettings } from '../config';
import { UsageError } from './exit-codes';
import { departingFetch } from './departures';
import type { RunTelemetry } from './telemetry';

/** An embedded sandbox already running and the account of it to use (the demo's history months: one sandbox, an account each, so each keeps its own pace). */
export interface SharedSandbox {
  running: RunningSandbox;
  account: AccountConfig;
}

export interface Connection {
  client: ServiceClient;
  /** Reports are marked as sandbox data. */
  sandbox: boolean;
  tier?: TierName;
  close(): Promise<void>;
}

/**
 * The service the job talks to: the one SVC_BASE_URL (or the config) names, or, without one,
 * the embedded sandbox started in this process with a demo account of the chosen tier
 * (enterprise by default, the tier that shows every section of the report).
 */
export async function connect(
  settings: ServiceSettings,
  opts: {
    asOf?: string;
    log: (line: string) => void;
    telemetry?: Pick<RunTelemetry, 'onCall' | 'logger' | 'watchBudget'>;
    /** An embedded sandbox already running, used instead of starting one and left running (the demo's history months share one). */
    sandbox?: SharedSandbox;
  },
): Promise<Connection> {
  // The sandbox values as of a past day on request; a real service is not assumed to know the header.
  const headers: Record<string, string> = settings.sandbox && opts.asOf ? { 'x-sandbox-as-of': opts.asOf } : {};
  // The tier's limits come from the client's `tier` option (the one place a tier becomes limits); only the window length is ours.
  const limits = { minuteMs: settings.minuteMs };
  // Ctrl-C lets a chunk's request that has left land (departures.ts); none leaves after it.
  const fetch = departingFetch((input, init) => globalThis.fetch(input, init));
  const observed = { onCall: opts.telemetry?.onCall, logger: opts.telemetry?.logger };
  // The secret may come from the config file: the log learns it before any line could carry it.
  opts.telemetry?.logger?.addSecret(settings.clientSecret);

  if (settings.baseUrl) {
    if (!settings.clientId || !settings.clientSecret) {
      throw new UsageError('SVC_BASE_URL is set but credentials are missing: set SVC_CLIENT_ID and SVC_CLIENT_SECRET (or client_id/client_secret in the config file)');
    }
    // With Redis (--redis, SVC_REDIS_URL) the account's rate budget is shared with every other process using it.
    const shared = settings.redisUrl ? await (await import('../queue/shared-gate')).openReportGate(settings.baseUrl, settings.clientId, settings.redisUrl, limits.minuteMs, opts.log) : undefined;
    const client = new ServiceClient({ baseUrl: settings.baseUrl, clientId: settings.clientId, clientSecret: settings.clientSecret, tier: settings.tier, limits, headers, rateGate: shared?.gate, fetch, ...observed });
    watchBudget(opts.telemetry, client);
    return { client, sandbox: settings.sandbox, tier: settings.tier, close: async () => shared?.close() };
  }

  if (settings.redisUrl) opts.log('Note: the Redis URL is not used with the embedded sandbox (it lives in this process only); set SVC_BASE_URL to share an account.');
  const shared = opts.sandbox;
  const tier = shared?.account.tier ?? settings.tier ?? 'enterprise';
  // Loaded only here: a run against the real service never loads the market model.
  const sandbox = shared?.running ?? (await (await import('../../src/sandbox')).startSandbox({ port: 0, quiet: true, minuteMs: settings.minuteMs, logFile: settings.sandboxLog }));
  const account = shared?.account ?? sandbox.accounts.find((a) => a.tier === tier && a.client_id.startsWith('demo-')) ?? sandbox.accounts.find((a) => a.tier === tier)!;
  opts.log(`No SVC_BASE_URL set: using the embedded sandbox at ${sandbox.url} with the demo account ${account.client_id} (${tier} tier). Reports are marked as sandbox data.`);
  const client = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier, limits, headers, fetch, ...observed });
  watchBudget(opts.telemetry, client);
  return { client, sandbox: true, tier, close: async () => (shared ? undefined : sandbox.close()) };
}

/** The budget gauges follow the newest connection: the one in use (a worker opens one per valuation day). */
function watchBudget(telemetry: Pick<RunTelemetry, 'watchBudget'> | undefined, client: ServiceClient): void {
  telemetry?.watchBudget?.({ status: () => client.rateLimitStatus(), callsPerMs: () => client.pacing().callsPerMs });
}
