import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, ServiceClient, type FetchLike } from '../../src/client';
import { DEMO_ACCOUNTS } from '../../src/sandbox';
import { TokenResponse } from '../../src/wire';
import { apiCalls, clientFor, count, readLog, start, watches, type Sandbox } from './helpers';

let sb: Sandbox;

beforeAll(async () => {
  sb = await start({ tokenTtlSeconds: 2, minuteMs: 1000, accounts: [...DEMO_ACCOUNTS, { client_id: 'fresh', client_secret: 'fresh-secret', tier: 'starter' }] });
});
afterAll(() => sb.close());

const segmentsCall = (c: ServiceClient) => c.segments.list();

describe('access tokens', () => {
  it('one token request however many calls start at once', async () => {
    const c = clientFor(sb, 'demo-pro', { rateLimitKey: 'single-flight', limits: { minuteMs: 1000 } });
    const before = count(await readLog(sb), (l) => l.path === '/v1/auth/token');
    await Promise.all(Array.from({ length: 20 }, () => segmentsCall(c)));
    expect(count(await readLog(sb), (l) => l.path === '/v1/auth/token') - before).toBe(1);
  });

  it('tokens expiring mid-run (2 s lifetime) cost no failed call, even with no retries allowed', async () => {
    let renewed = 0;
    const counting: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (url.endsWith('/auth/refresh') && res.ok) renewed++;
      return res;
    };
    const c = clientFor(sb, 'demo-enterprise', { maxRetries: 0, rateLimitKey: 'expiry', limits: { minuteMs: 1000 }, fetch: counting });
    const before = (await readLog(sb)).length;
    let calls = 0;
    const items = watches(100);
    // Until the run has spanned two renewals (events, not a duration).
    while (renewed < 2) {
      const out = await c.valueAll(items.slice(calls % 50, (calls % 50) + 50));
      expect(out.every((o) => o.ok)).toBe(true);
      await segmentsCall(c);
      calls++;
      await new Promise((r) => setTimeout(r, 40));
    }
    const log = (await readLog(sb)).slice(before);
    // Renewals happened (the run spans two lifetimes at least), through the rotating refresh token.
    expect(count(log, (l) => l.path === '/v1/auth/refresh' && l.status === 200)).toBeGreaterThanOrEqual(2);
    // Each refresh presented the newest refresh token (a spent one would be a 401).
    expect(count(log, (l) => l.path === '/v1/auth/refresh' && l.status !== 200)).toBe(0);
    // No call failed (each one above resolved, with no retries allowed). Renewal ahead of expiry
    // is shown on an injected clock (token-renewal.test.ts): here a loaded machine may delay a
    // request past its token's last moment, which costs a 401 and one repeat, nothing else.
    expect(count(apiCalls(log), (l) => l.status !== 200 && l.status !== 401)).toBe(0);
  });

  it('a refused token is renewed and the call repeated once', async () => {
    // The host's token is already expired when first used: the provider is asked again with forceRefresh.
    const asked: boolean[] = [];
    const stale = (await issue('demo-starter')).access_token;
    const c = new ServiceClient({
      baseUrl: sb.url,
      rateLimitKey: 'provider',
      tokenProvider: async ({ forceRefresh }) => {
        asked.push(forceRefresh);
        return forceRefresh ? (await issue('demo-starter')).access_token : stale;
      },
    });
    await new Promise((r) => setTimeout(r, 2_100));
    const list = await c.segments.list();
    expect(list.segments.length).toBe(10);
    expect(asked).toEqual([false, true]);
  });

  it('a host that adds the header itself: no token, and a clear AuthenticationError when it did not', async () => {
    const c = new ServiceClient({ baseUrl: sb.url, rateLimitKey: 'no-auth' });
    const err = (await c.segments.list().catch((e: unknown) => e)) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.message).toMatch(/Authorization header is missing/);
  });

  it('a spent refresh token falls back to the client credentials', async () => {
    // A middlebox replays every refresh request first, so the client's own copy arrives spent.
    let replayed = 0;
    const replaying: FetchLike = async (url, init) => {
      if (url.endsWith('/auth/refresh')) {
        replayed++;
        await fetch(url, init);
      }
      return fetch(url, init);
    };
    const c = clientFor(sb, 'demo-pro', { fetch: replaying, rateLimitKey: 'replay', maxRetries: 0 });
    const before = await readLog(sb);
    // Until a refresh was replayed (its copy arrived spent), then once more with the new token.
    while (replayed < 1) {
      await segmentsCall(c);
      await new Promise((r) => setTimeout(r, 100));
    }
    await segmentsCall(c);
    const log = (await readLog(sb)).slice(before.length);
    expect(replayed).toBeGreaterThanOrEqual(1);
    expect(count(log, (l) => l.path === '/v1/auth/refresh' && l.status === 401)).toBe(replayed);
    expect(count(log, (l) => l.path === '/v1/auth/token' && l.status === 200)).toBeGreaterThanOrEqual(1 + replayed);
    // Every call resolved (maxRetries 0); a 401 at a token's last moment on a loaded machine is repeated once, as designed.
    expect(count(apiCalls(log), (l) => l.status !== 200 && l.status !== 401)).toBe(0);
  });

  it('wrong credentials are an AuthenticationError that names no secret', async () => {
    const c = new ServiceClient({ baseUrl: sb.url, clientId: 'demo-pro', clientSecret: 'wrong-secret-123', rateLimitKey: 'wrong' });
    const err = (await c.segments.list().catch((e: unknown) => e)) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.action).toBe('reauthenticate');
    expect(JSON.stringify(err) + err.message).not.toContain('wrong-secret-123');
  });

  it('token requests are not counted against the rate budget', async () => {
    const c = clientFor(sb, 'fresh', { tier: 'starter', limits: { minuteMs: 1000 } });
    await segmentsCall(c);
    const s = c.rateLimitStatus();
    expect(s.minuteLimit).toBe(60);
    expect(s.minuteRemaining).toBe(59);
  });
});

async function issue(clientId: string): Promise<TokenResponse> {
  const res = await fetch(`${sb.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: `${clientId}-secret`, grant_type: 'client_credentials' }),
  });
  return TokenResponse.parse(await res.json());
}
