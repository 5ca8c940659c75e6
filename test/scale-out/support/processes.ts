import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { commandArgs } from '../../../fixtures/commands';
import { killSpawned, spawnNode, type Spawned } from '../../../fixtures/spawned';
import { startSandbox, type LogLine } from '../../../src/sandbox';
import { startRedis } from '../../../fixtures/redis-server';

export { killSpawned as killAll } from '../../../fixtures/spawned';

/** The queue secret every process of a test file shares (`run --queue` and `worker` require one). */
export const QUEUE_SECRET = `queue-secret-${randomUUID()}`;

/** `svc-report …` in its own process, with a fixed SOURCE_DATE_EPOCH (reports comparable across runs) and the file's queue secret. */
export function svcReport(args: string[], env: NodeJS.ProcessEnv): Spawned {
  return spawnNode([...commandArgs('svc-report'), ...args], { SOURCE_DATE_EPOCH: '1790000000', SVC_QUEUE_SECRET: QUEUE_SECRET, ...env });
}

/** The account's API calls in the sandbox's request log (token calls left out). */
export const calls = (logFile: string, clientId: string): LogLine[] =>
  (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.client_id === clientId && !l.path.includes('/auth/'));

/** Holdings the service valued for the account (answered batch items). */
export const valuedItems = (logFile: string, clientId: string) => calls(logFile, clientId).filter((l) => l.status === 200 && l.path.endsWith('/valuations/batch')).reduce((n, l) => n + l.items, 0);

export const waitFor = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

/** The JSON reports a run wrote, by file name. */
/** A folder's reports of one format by file name (manifest.json aside), to compare two runs' whole. */
const reportsOf = (ext: string) => (out: string) =>
  Object.fromEntries(
    readdirSync(out)
      .filter((f) => f.endsWith(ext) && f !== 'manifest.json')
      .map((f) => [f, readFileSync(join(out, f), 'utf8')]),
  );
export const jsonReports = reportsOf('.json');
export const htmlReports = reportsOf('.html');

/**
 * A sandbox of the given accounts (one secret) and a real redis-server for one test file, with
 * `svc-report` spawned as an account; `stop` ends every process the file started.
 */
export async function startQueueStack(accounts: { client_id: string; client_secret: string; tier: 'pro'; per_minute: number; per_day: number }[], minuteMs: number) {
  const sandbox = await startSandbox({ port: 0, quiet: true, minuteMs, accounts });
  const redis = await startRedis();
  const secretOf = (clientId: string) => accounts.find((a) => a.client_id === clientId)!.client_secret;
  return {
    sandbox,
    redis,
    svcReport: (args: string[], clientId: string) => svcReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: clientId, SVC_CLIENT_SECRET: secretOf(clientId), SVC_SANDBOX: '1' }),
    stop: async () => {
      killSpawned();
      await sandbox.close();
      await redis.stop();
    },
  };
}
