import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type LogLine, type SandboxOptions } from '../../src/sandbox';
import { RateGate, ServiceClient, type ClientOptions, type FetchLike } from '../../src/client';
import type { ValuationRequest } from '../../src/wire';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>> & { logFile: string };

/** A sandbox on a free port of 127.0.0.1 with its own request log. */
export async function start(opts: SandboxOptions = {}): Promise<Sandbox> {
  const logFile = join(mkdtempSync(join(tmpdir(), 'svc-client-')), 'requests.jsonl');
  const sb = await startSandbox({ port: 0, quiet: true, logFile, ...opts });
  return { ...sb, logFile };
}

/** The sandbox's JSONL log (the stream is flushed by the time a response arrived, give it a tick). */
export async function readLog(sb: Sandbox): Promise<LogLine[]> {
  await new Promise((r) => setTimeout(r, 30));
  if (!existsSync(sb.logFile)) return [];
  return readFileSync(sb.logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

export const apiCalls = (log: LogLine[]) => log.filter((l) => !l.path.startsWith('/v1/auth/'));
export const count = (log: LogLine[], pred: (l: LogLine) => boolean) => log.filter(pred).length;
/** Assets valued: items of batch valuation calls that succeeded. */
export const valuedItems = (log: LogLine[]) => log.filter((l) => l.path === '/v1/valuations/batch' && l.status === 200).reduce((n, l) => n + l.items, 0);

export type Tier = 'starter' | 'pro' | 'enterprise';

/** A client of one of the demo accounts (or the named one), with quick retries for tests. */
export function clientFor(sb: Sandbox, clientId: string, extra: Partial<ClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sb.url,
    clientId,
    clientSecret: `${clientId}-secret`,
    backoff: { baseMs: 10, capMs: 100 },
    ...extra,
  });
}

const BRANDS = ['Rolex', 'Patek Philippe', 'Audemars Piguet', 'Omega', 'Cartier'];
/** n distinct, valid watch valuation requests. */
export function watches(n: number, prefix = 'R'): ValuationRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    segment: 'watches' as const,
    brand: BRANDS[i % BRANDS.length]!,
    model: `Model ${i % 17}`,
    reference: `${prefix}${i}`,
    year: 1990 + (i % 30),
  }));
}

/** A console-like logger that keeps every line it is given, data included, as text. */
export function captureLogger() {
  const lines: string[] = [];
  const rec = (level: string) => (message: string, data?: Record<string, unknown>) => lines.push(`${level} ${message} ${data ? JSON.stringify(data) : ''}`);
  return { lines, logger: { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') } };
}

/** A real answer of the sandbox to an authenticated GET (e.g. '/segments'), as text, for a scripted fetch to replay. */
export async function realAnswer(sb: Sandbox, path: string): Promise<string> {
  const res = await fetch(`${sb.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'demo-pro', client_secret: 'demo-pro-secret', grant_type: 'client_credentials' }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return (await fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).text();
}

/** A fetch that plays scripted answers in turn and records when each request left (on the test's clock, fake or not). */
export function scripted(answers: (() => Response)[]) {
  const sentAt: number[] = [];
  const fetchImpl: FetchLike = async () => {
    sentAt.push(Date.now());
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return next();
  };
  return { fetchImpl, sentAt };
}

/** A scripted answer: a JSON body with a status and headers. */
export const answer =
  (status: number, body: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });

/** A client of a scripted fetch: host-provided token (no token calls), its own gate, quick backoff. */
export function scriptedClient(fetchImpl: FetchLike, extra: Partial<ClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: 'http://service.test/v1',
    tokenProvider: () => 'host-token',
    fetch: fetchImpl,
    rateGate: new RateGate({ minuteMs: 60_000, dayMs: 86_400_000 }),
    backoff: { baseMs: 10, capMs: 50 },
    ...extra,
  });
}
