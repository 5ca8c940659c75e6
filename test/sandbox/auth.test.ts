import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenResponse } from '../../src/wire';
import { call, errorOf, expectShape, getToken, start, type Sandbox } from './helpers';

let sb: Sandbox;
let sbHour: Sandbox;
const ACCOUNTS = [
  { client_id: 'demo-starter', client_secret: 'demo-starter-secret', tier: 'starter' as const },
  { client_id: 'demo-enterprise', client_secret: 'demo-enterprise-secret', tier: 'enterprise' as const },
  { client_id: 'narrow', client_secret: 'narrow-secret', tier: 'pro' as const, scope: 'valuations exit' },
];

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** Tokens here live one second (exp = whole-second iat + 1): take one just after a second starts so it lives ~1 s. */
async function freshToken(clientId: string) {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));
  return getToken(sb.url, clientId);
}

beforeAll(async () => {
  sb = await start({ tokenTtlSeconds: 1, accounts: ACCOUNTS });
  // Tests that are not about expiry use tokens of an hour, so a loaded machine cannot expire them mid-test.
  sbHour = await start({ accounts: ACCOUNTS });
});
afterAll(async () => {
  await sb.close();
  await sbHour.close();
});

async function expect401(token: string, action: string, base = sb.url) {
  const r = await call(base, 'GET', '/segments', { token });
  expect(r.status).toBe(401);
  const e = errorOf(r);
  expect(e.type).toBe('unauthorised');
  expect(e.action).toBe(action);
  expect(r.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
  expect(JSON.stringify(r.json)).not.toContain(token);
  // Unauthenticated calls carry no account's budget.
  expect(r.headers.get('x-ratelimit-limit')).toBeNull();
}

describe('client credentials', () => {
  it('issues a Bearer JWT with a refresh token, the TTL and the tier scopes', async () => {
    const t = await getToken(sb.url, 'demo-starter');
    expect(t.token_type).toBe('Bearer');
    expect(t.expires_in).toBe(1);
    expect(t.scope).toBe('valuations scores signals');
    expect(t.refresh_token).toMatch(/^rt_/);
    const claims = decodeJwt(t.access_token);
    expect(claims.sub).toBe('demo-starter');
    expect(claims.tier).toBe('starter');
    expect(claims.exp! - claims.iat!).toBe(1);
    expect(claims.jti).toBeTruthy();
    expect((await getToken(sb.url, 'demo-enterprise')).scope).toBe('valuations scores projections signals portfolio exit');
  });

  it('an account scope narrows the tier scopes', async () => {
    const t = await getToken(sbHour.url, 'narrow');
    expect(t.scope).toBe('valuations');
    const r = await call(sbHour.url, 'POST', '/scores/breakdown', { token: t.access_token, body: { asset_id: 'SVC-WAT-ROLEX-126610LN' } });
    expect(r.status).toBe(403);
  });

  it('a wrong secret or an unknown client is a 401 that echoes no secret', async () => {
    for (const [id, secret] of [['demo-starter', 'guess-secret-123'], ['nobody', 'guess-secret-123'], ['demo-starter', 'demo-starter-secreT']]) {
      const r = await call(sb.url, 'POST', '/auth/token', { body: { client_id: id, client_secret: secret, grant_type: 'client_credentials' } });
      expect(r.status).toBe(401);
      const e = errorOf(r);
      expect(e.type).toBe('unauthorised');
      expect(e.action).toBe('reauthenticate');
      expect(JSON.stringify(r.json)).not.toContain(secret);
    }
  });

  it('a token request with a wrong grant_type or missing fields is a 400', async () => {
    const r = await call(sb.url, 'POST', '/auth/token', { body: { client_id: 'demo-starter', client_secret: 'x', grant_type: 'password' } });
    expect(r.status).toBe(400);
    expect(errorOf(r).field).toBe('grant_type');
    const r2 = await call(sb.url, 'POST', '/auth/token', { body: { client_id: 'demo-starter' } });
    expect(errorOf(r2).field).toBe('client_secret');
  });
});

describe('access tokens that are refused', () => {
  it('no header, or not a Bearer header', async () => {
    const r = await call(sb.url, 'GET', '/segments');
    expect(r.status).toBe(401);
    expect(errorOf(r).action).toBe('reauthenticate');
    const r2 = await call(sb.url, 'GET', '/segments', { headers: { authorization: 'Basic abc' } });
    expect(r2.status).toBe(401);
  });

  it('alg none, altered claims, a bad signature, another key, garbage', async () => {
    const { access_token } = await getToken(sbHour.url, 'demo-starter');
    const [header, payload, sig] = access_token.split('.') as [string, string, string];
    const claims = decodeJwt(access_token);
    // alg: none with the real claims and no signature.
    await expect401(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`, 'reauthenticate', sbHour.url);
    // The starter widens its own scope; the signature no longer matches.
    await expect401(`${header}.${b64({ ...claims, scope: 'valuations scores projections signals portfolio exit' })}.${sig}`, 'reauthenticate', sbHour.url);
    await expect401(`${header}.${b64({ ...claims, exp: claims.exp! + 3600 })}.${sig}`, 'reauthenticate', sbHour.url);
    // A flipped signature.
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    await expect401(`${header}.${payload}.${flipped}`, 'reauthenticate', sbHour.url);
    // Well-formed, signed with a key that is not the sandbox's.
    const foreign = await new SignJWT({ scope: 'valuations', tier: 'starter' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('demo-starter')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new Uint8Array(32).fill(7));
    await expect401(foreign, 'reauthenticate', sbHour.url);
    await expect401('not.a.jwt', 'reauthenticate', sbHour.url);
    // The genuine token still works (a forged one never poisons the cache).
    expect((await call(sbHour.url, 'GET', '/segments', { token: access_token })).status).toBe(200);
  });

  it('an expired token is a 401 with action refresh_token; refresh gives a working one', async () => {
    const t = await freshToken('demo-starter');
    expect((await call(sb.url, 'GET', '/segments', { token: t.access_token })).status).toBe(200);
    const exp = decodeJwt(t.access_token).exp!;
    await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 50));
    await expect401(t.access_token, 'refresh_token');
    const r = await call(sb.url, 'POST', '/auth/refresh', { body: { refresh_token: t.refresh_token, grant_type: 'refresh_token' } });
    expect(r.status).toBe(200);
    const fresh = expectShape(TokenResponse, r.json);
    expect(fresh.refresh_token).not.toBe(t.refresh_token);
    expect((await call(sb.url, 'GET', '/segments', { token: fresh.access_token })).status).toBe(200);
  });
});

describe('refresh rotation', () => {
  it('each refresh token works once; the new one works; reuse is a 401 reauthenticate', async () => {
    const first = await getToken(sb.url, 'demo-enterprise');
    const refresh = (rt: string) => call(sb.url, 'POST', '/auth/refresh', { body: { refresh_token: rt, grant_type: 'refresh_token' } });
    const r1 = await refresh(first.refresh_token!);
    expect(r1.status).toBe(200);
    const second = expectShape(TokenResponse, r1.json);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe(first.scope);
    expect(decodeJwt(second.access_token).sub).toBe('demo-enterprise');

    const reused = await refresh(first.refresh_token!);
    expect(reused.status).toBe(401);
    expect(errorOf(reused).action).toBe('reauthenticate');
    expect(JSON.stringify(reused.json)).not.toContain(first.refresh_token!);

    expect((await refresh('rt_made_up')).status).toBe(401);
    const bad = await call(sb.url, 'POST', '/auth/refresh', { body: { refresh_token: second.refresh_token, grant_type: 'client_credentials' } });
    expect(bad.status).toBe(400);
  });
});
