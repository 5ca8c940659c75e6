import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, ServerError, ServiceClient, TimeoutError } from '../../src/client';
import { apiCalls, captureLogger, clientFor, count, readLog, start, valuedItems, watches, type Sandbox } from './helpers';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Enterprise with a one-second window: 1,000 calls a second, so faults, not limits, shape these runs. */
const FAST = { minuteMs: 1000 };
const fastClient = (s: Sandbox, extra: Parameters<typeof clientFor>[2] = {}): ServiceClient =>
  clientFor(s, 'demo-enterprise', { tier: 'enterprise', limits: { minuteMs: 1000 }, maxRetries: 8, ...extra });

const portfolio = {
  name: 'Fault test',
  assets: [{ segment: 'watches' as const, brand: 'Rolex', model: 'Submariner', purchase_price: 9_000, purchase_date: '2019-04-01' }],
};

describe('2,000 assets through each fault kind: every item valued exactly once', () => {
  const kinds = [
    ['error', 'error=0.25'],
    ['drop', 'drop=0.25'],
    ['latency', 'latency=0-60'],
    ['r429', 'r429=0.25'],
    ['all together', 'error=0.1,drop=0.1,r429=0.1,latency=0-20'],
  ] as const;
  for (const [kind, faults] of kinds) {
    it(kind, async () => {
      sb = await start({ ...FAST, faults, seed: 7 });
      const progress: number[] = [];
      const out = await fastClient(sb).valueAll(watches(2_000), { onProgress: (p) => progress.push(p.done) });
      expect(out).toHaveLength(2_000);
      expect(out.every((o) => o.ok)).toBe(true);
      expect(progress.at(-1)).toBe(2_000);
      const log = apiCalls(await readLog(sb));
      // Faulted attempts never carried a valuation back; the successful ones add up to exactly 2,000.
      expect(valuedItems(log)).toBe(2_000);
      if (kind !== 'latency') expect(count(log, (l) => l.status !== 200)).toBeGreaterThan(0);
    });
  }
});

describe('what is repeated and what is not', () => {
  it('5xx: idempotent calls are retried, POST /portfolio is not', async () => {
    sb = await start({ ...FAST, faults: 'error=1' });
    const c = fastClient(sb, { maxRetries: 3 });
    await expect(c.segments.list()).rejects.toBeInstanceOf(ServerError);
    expect(count(apiCalls(await readLog(sb)), (l) => l.path === '/v1/segments')).toBe(4);
    await expect(c.portfolio.create(portfolio)).rejects.toBeInstanceOf(ServerError);
    expect(count(apiCalls(await readLog(sb)), (l) => l.path === '/v1/portfolio')).toBe(1);
  });

  it('a dropped connection: idempotent calls are retried, POST /portfolio is not', async () => {
    sb = await start({ ...FAST, faults: 'drop=1' });
    const c = fastClient(sb, { maxRetries: 2 });
    await expect(c.valuations.create({ segment: 'watches', brand: 'Rolex', model: 'Daytona' })).rejects.toBeInstanceOf(ConnectionError);
    expect(count(apiCalls(await readLog(sb)), (l) => l.path === '/v1/valuations')).toBe(3);
    const err = (await c.portfolio.create(portfolio).catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.notSent).toBe(false);
    expect(count(apiCalls(await readLog(sb)), (l) => l.path === '/v1/portfolio')).toBe(1);
  });

  it('a timeout: idempotent calls are retried, POST /portfolio is not', async () => {
    sb = await start({ ...FAST, faults: 'latency=400' });
    const { lines, logger } = captureLogger();
    const c = fastClient(sb, { maxRetries: 1, timeoutMs: 150, logger });
    await expect(c.segments.list()).rejects.toBeInstanceOf(TimeoutError);
    const err = (await c.portfolio.create(portfolio).catch((e: unknown) => e)) as TimeoutError;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toMatch(/did not answer createPortfolio \(POST \/portfolio\) within 150 ms/);
    // Attempts as the client made them (a request cut off mid-way may never reach the sandbox's log).
    expect(lines.filter((l) => l.startsWith(`debug GET ${sb!.url}/segments`))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith(`debug POST ${sb!.url}/portfolio`))).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(count(apiCalls(await readLog(sb)), (l) => l.path === '/v1/segments')).toBe(2);
  });

  it('a 429 is repeated even for POST /portfolio (the service refused it)', async () => {
    sb = await start({ ...FAST, faults: 'r429=0.5', seed: 3 });
    const c = fastClient(sb);
    const created = await Promise.all([1, 2, 3, 4].map(() => c.portfolio.create(portfolio)));
    expect(created.every((p) => p.portfolio.id.startsWith('port_'))).toBe(true);
    const log = apiCalls(await readLog(sb));
    expect(count(log, (l) => l.path === '/v1/portfolio' && l.status === 201)).toBe(4);
    expect(count(log, (l) => l.path === '/v1/portfolio' && l.status === 429)).toBeGreaterThan(0);
  });

  it('connection refused: nothing reached the service, so even POST /portfolio is retried', async () => {
    sb = await start();
    const url = sb.url;
    await sb.close();
    sb = undefined;
    const { lines, logger } = captureLogger();
    // A host-provided token, so the first thing sent is the portfolio call itself.
    const c = new ServiceClient({ baseUrl: url, tokenProvider: () => 'host-token', maxRetries: 2, logger, backoff: { baseMs: 1, capMs: 5 } });
    const err = (await c.portfolio.create(portfolio).catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toMatch(/refused the connection/);
    expect(err.notSent).toBe(true);
    expect(lines.filter((l) => l.startsWith('warn retrying createPortfolio')).length).toBe(2);
  });
});
