import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorOf, start, type Sandbox } from './helpers';

/**
 * Repeated wrong secrets for one client id are slowed (a sandbox behaviour, docs/security.md).
 * The slow-down runs on an injected clock, so nothing here depends on how fast the machine is.
 */
let sb: Sandbox;
let clock = Date.UTC(2026, 0, 1);
beforeAll(async () => {
  sb = await start({ clockMs: () => clock });
});
afterAll(() => sb.close());

const signIn = (client_id: string, client_secret: string) =>
  call(sb.url, 'POST', '/auth/token', { body: { client_id, client_secret, grant_type: 'client_credentials' } });

describe('failed secrets for one client id are slowed', () => {
  it('five free failures, then locks that double and refuse even the right secret until they pass', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await signIn('demo-starter', `guess-${i}`)).status);
    // Five free 401s, the sixth 401 starts the lock, the other 194 are 429 without the secret being checked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(194);

    const locked = await signIn('demo-starter', 'demo-starter-secret');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('1');
    expect(errorOf(locked)).toMatchObject({ type: 'rate_limited', action: 'retry_later' });
    expect(JSON.stringify(locked.json)).not.toContain('demo-starter-secret');

    // Each further failure doubles the lock: 2 s, then 4 s.
    clock += 1000;
    expect((await signIn('demo-starter', 'wrong')).status).toBe(401);
    expect((await signIn('demo-starter', 'wrong')).headers.get('retry-after')).toBe('2');
    clock += 2000;
    expect((await signIn('demo-starter', 'wrong')).status).toBe(401);
    expect((await signIn('demo-starter', 'wrong')).headers.get('retry-after')).toBe('4');

    // Other client ids are not slowed by it.
    expect((await signIn('demo-pro', 'demo-pro-secret')).status).toBe(200);

    // Once the lock has passed, the right secret works and clears the count.
    clock += 4000;
    expect((await signIn('demo-starter', 'demo-starter-secret')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn('demo-starter', 'wrong')).status).toBe(401);
  });

  it('unknown client ids are slowed alike, so the answers reveal no account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn('nobody-here', `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429, 429]);
  });

  it('the lock never exceeds 60 s', async () => {
    for (let i = 0; i < 30; i++) {
      await signIn('demo-enterprise', 'wrong');
      clock += 61_000;
    }
    await signIn('demo-enterprise', 'wrong');
    expect((await signIn('demo-enterprise', 'wrong')).headers.get('retry-after')).toBe('60');
  });
});
