import { createServer } from 'node:net';
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import {
  ConnectionError,
  NotFoundError,
  RateGate,
  ServerError,
  ServiceClient,
  ServiceError,
  type FetchLike,
} from '../../src/client';
import { answer, apiCalls, clientFor, readLog, realAnswer, scripted, scriptedClient, start, type Sandbox } from './helpers';

let sb: Sandbox;
/** A real answer of the sandbox to GET /segments, replayed by the scripted fetch below. */
let segmentsBody: string;
beforeAll(async () => {
  sb = await start({ minuteMs: 1000 });
  segmentsBody = await realAnswer(sb, '/segments');
});
afterAll(() => sb.close());
afterEach(() => vi.useRealTimers());

const json = answer;
const unavailable = (retryAfter: string) => json(503, JSON.stringify({ error: { code: 503, type: 'internal_error', message: 'Back soon.' } }), { 'retry-after': retryAfter });

describe('SDK errors and retries (openai-node shapes)', () => {
  it('a 503 with Retry-After: 30 waits 30 s (fake clock), then repeats', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = scripted([unavailable('30'), json(200, segmentsBody)]);
    const call = scriptedClient(s.fetchImpl).segments.list();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(s.sentAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.sentAt).toHaveLength(2);
    expect(s.sentAt[1]! - s.sentAt[0]!).toBe(30_000);
    expect((await call).segments.length).toBeGreaterThan(0);
  });

  it('a Retry-After beyond 60 s is not believed: backoff decides', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = scripted([unavailable('600'), json(200, segmentsBody)]);
    const call = scriptedClient(s.fetchImpl).segments.list();
    await vi.advanceTimersByTimeAsync(50); // the backoff cap
    expect(s.sentAt).toHaveLength(2);
    await call;
  });

  it('per-request maxRetries: 0 sends once; the client default retries', async () => {
    const faulty = await start({ faults: 'error=1' });
    try {
      const c = clientFor(faulty, 'demo-pro', { rateLimitKey: `max-retries-${Math.random()}`, maxRetries: 2 });
      const before = apiCalls(await readLog(faulty)).length;
      await expect(c.segments.list({ maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
      const once = apiCalls(await readLog(faulty)).length;
      expect(once - before).toBe(1);
      await expect(c.segments.list()).rejects.toBeInstanceOf(ServerError);
      expect(apiCalls(await readLog(faulty)).length - once).toBe(3);
    } finally {
      await faulty.close();
    }
  });

  it('an injected rate gate is the one used (not the process-wide registry)', async () => {
    const gate = new RateGate({ perMinute: 1000, minuteMs: 60_000, dayMs: 86_400_000 });
    const c = clientFor(sb, 'demo-pro', { rateGate: gate });
    clientFor(sb, 'demo-pro'); // same account: the registry's gate exists alongside
    // Grants are counted at the gates themselves. The service's remaining is no measure of
    // them: it also counts beforeAll's call on this account when that fell in the same
    // 1-second window (the cause of a flake: 3 seen for 2 sent).
    const injected = vi.spyOn(gate, 'acquire');
    const registry = vi.spyOn(Object.getPrototypeOf(gate) as RateGate, 'acquire');
    await c.segments.list();
    await c.segments.list();
    expect(injected).toHaveBeenCalledTimes(2);
    expect(registry.mock.contexts.filter((g) => g !== gate)).toEqual([]);
    registry.mockRestore();
    expect(c.rateLimitStatus()).toEqual(gate.status());
  });

  it("a network error's cause is the fetch error", async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    let fetchError: unknown;
    const c = new ServiceClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      tokenProvider: () => 'host-token',
      rateGate: new RateGate({ minuteMs: 60_000, dayMs: 86_400_000 }),
      fetch: (url, init) => fetch(url, init).catch((e: unknown) => Promise.reject((fetchError = e))),
    });
    const err = (await c.segments.list({ maxRetries: 0 }).catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(fetchError).toBeInstanceOf(TypeError);
    expect(err.cause).toBe(fetchError);
    expect(err.notSent).toBe(true);
  });

  it('a service error carries status, code, the response headers and the request id', async () => {
    const s = scripted([json(404, JSON.stringify({ error: { code: 404, type: 'not_found', message: 'No such projection.' } }), { 'x-request-id': 'req_42' })]);
    const err = (await scriptedClient(s.fetchImpl).projections.get('proj_missing').catch((e: unknown) => e)) as ServiceError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.status).toBe(404);
    expect(err.code).toBe('not_found');
    expect(err.requestId).toBe('req_42');
    expect(err.headers.get('content-type')).toBe('application/json');
    expect(err.toJSON()).toMatchObject({ status: 404, requestId: 'req_42' });
  });

  it("the sandbox's x-request-id reaches the error and names the request's line in the sandbox log", async () => {
    const c = clientFor(sb, 'demo-pro', { rateGate: new RateGate({ minuteMs: 60_000, dayMs: 86_400_000 }) });
    const first = (await c.projections.get('proj_missing').catch((e: unknown) => e)) as ServiceError;
    const second = (await c.projections.get('proj_missing').catch((e: unknown) => e)) as ServiceError;
    expect(first).toBeInstanceOf(NotFoundError);
    expect(first.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(second.requestId).not.toBe(first.requestId);
    const line = (await readLog(sb)).find((l) => l.request_id === first.requestId);
    expect(line).toMatchObject({ status: 404, path: '/v1/projections/proj_missing' });
  });

  it('per-request timeoutMs and signal', async () => {
    const c = clientFor(sb, 'demo-pro', { rateGate: new RateGate({ minuteMs: 60_000, dayMs: 86_400_000 }) });
    const ctrl = new AbortController();
    const reason = new Error('user closed the sheet');
    ctrl.abort(reason);
    const aborted = (await c.segments.list({ signal: ctrl.signal }).catch((e: unknown) => e)) as ServiceError;
    expect(aborted.type).toBe('aborted');
    expect(aborted.cause).toBe(reason);
    const hanging: FetchLike = (_url, init) => new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const slow = scriptedClient(hanging);
    const timedOut = (await slow.segments.list({ timeoutMs: 5, maxRetries: 0 }).catch((e: unknown) => e)) as ServiceError;
    expect(timedOut.type).toBe('timeout');
    expect(timedOut.cause).toBeInstanceOf(DOMException);
  });
});
