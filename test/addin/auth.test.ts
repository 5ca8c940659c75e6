import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UnsecuredJWT } from 'jose';
import { startStack, type Stack } from './stack';
import { startOidcProvider, type OidcProvider } from '../support/oidc-provider';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { hostConfigFromEnv } from '../../addin/server/config';
import { startAddinHost } from '../../addin/server/host';

const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };
const AUDIENCE = 'api://addin.example.com/11111111-2222-3333-4444-555555555555';
const ROLE = 'SVC.User';
const VALUATION = { segment: 'watches', brand: 'Rolex', model: 'Submariner', year: 2020 };

interface Answer {
  status: number;
  body: { error?: { type: string; message: string }; [k: string]: unknown };
  text: string;
  wwwAuthenticate: string | null;
}

describe('ADDIN_AUTH=entra: the host validates bearer tokens against the issuer\'s JWKS (a local OpenID provider, real tokens, over HTTP)', () => {
  let idp: OidcProvider;
  let stack: Stack;
  let dir: string;
  let auditFile: string;

  async function call(route: string, init: { token?: string; method?: string; body?: unknown } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...ADDIN };
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined || init.method === 'POST') headers['content-type'] = 'application/json';
    const res = await fetch(`${stack.host.url}${route}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Answer['body'], text, wwwAuthenticate: res.headers.get('www-authenticate') };
  }
  const value = (token?: string) => call('/api/v1/valuations', { method: 'POST', token, body: VALUATION });
  const good = (claims = {}) => idp.token(AUDIENCE, { claims: { roles: [ROLE], ...claims } });

  beforeAll(async () => {
    idp = await startOidcProvider();
    dir = await mkdtemp(path.join(tmpdir(), 'svc-auth-test-'));
    auditFile = path.join(dir, 'audit.jsonl');
    await writeFile(path.join(dir, 'taskpane.html'), '<!doctype html><title>SVC</title>');
    stack = await startStack({
      host: { auth: { mode: 'entra', entra: { issuer: idp.issuer, audiences: [AUDIENCE], role: ROLE, jwksCooldownMs: 0 } }, auditLog: auditFile, distDir: dir },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await idp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts a valid token on the API, status, refresh and report routes; the static files need none', async () => {
    const token = await good();
    const v = await value(token);
    expect(v.status).toBe(200);
    expect(v.body.asset_id).toEqual(expect.any(String));
    const status = await call('/addin/status', { token });
    expect(status.status).toBe(200);
    expect(status.body.user).toMatchObject({ name: 'Test User' });
    expect((await call('/addin/refresh', { method: 'POST', token })).status).toBe(200);
    const page = await fetch(`${stack.host.url}/taskpane.html`);
    expect(page.status).toBe(200);
  });

  it('refuses a request without a token: 401 sign_in_required with WWW-Authenticate: Bearer, on every gated route', async () => {
    for (const [route, method] of [['/api/v1/valuations', 'POST'], ['/addin/status', 'GET'], ['/addin/refresh', 'POST'], ['/addin/report', 'POST']] as const) {
      const r = await call(route, { method, body: method === 'POST' ? VALUATION : undefined });
      expect(r.status, route).toBe(401);
      expect(r.body.error?.type).toBe('sign_in_required');
      expect(r.body.error?.message).toMatch(/Sign in to SVC in the task pane/);
      expect(r.wwwAuthenticate).toBe('Bearer');
    }
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const unsigned = new UnsecuredJWT({ oid: 'x', roles: [ROLE] }).setIssuer(idp.issuer).setAudience(AUDIENCE).setIssuedAt().setExpirationTime('1h').encode();
    const r = await value(unsigned);
    expect(r.status).toBe(401);
    expect(r.body.error?.type).toBe('invalid_token');
    expect(r.body.error?.message).toMatch(/could not be verified/);
  });

  it('refuses a token signed with another key under the published kid (wrong signature)', async () => {
    const forger = await idp.unpublishedKey();
    // The forger's key, but the header names the provider's published key id.
    const published = (JSON.parse(Buffer.from((await good()).split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
    const r = await value(await idp.token(AUDIENCE, { key: forger, kid: published, claims: { roles: [ROLE] } }));
    expect(r.status).toBe(401);
    expect(r.body.error?.message).toMatch(/could not be verified/);
  });

  it('refuses a token from another tenant (issuer) and one for another audience', async () => {
    const otherTenant = await idp.token(AUDIENCE, { issuer: idp.issuer.replace('test-tenant', 'other-tenant'), claims: { roles: [ROLE] } });
    const r1 = await value(otherTenant);
    expect(r1.status).toBe(401);
    expect(r1.body.error?.message).toMatch(/not issued for SVC in your firm/);
    const otherApp = await idp.token('api://another-app', { claims: { roles: [ROLE] } });
    const r2 = await value(otherApp);
    expect(r2.status).toBe(401);
    expect(r2.body.error?.message).toMatch(/not issued for SVC in your firm/);
  });

  it('refuses an expired token and one not valid yet (beyond the 60 s skew)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await good({ iat: now - 7200, nbf: now - 7200, exp: now - 600 });
    const r1 = await value(expired);
    expect(r1.status).toBe(401);
    expect(r1.body.error?.type).toBe('token_expired');
    const early = await good({ nbf: now + 600, exp: now + 4200 });
    const r2 = await value(early);
    expect(r2.status).toBe(401);
    expect(r2.body.error?.type).toBe('token_not_yet_valid');
  });

  it('refuses a signed-in user without the required role: 403', async () => {
    const r = await value(await idp.token(AUDIENCE, { claims: { roles: ['Other.Role'] } }));
    expect(r.status).toBe(403);
    expect(r.body.error?.type).toBe('role_required');
    expect(r.text).not.toContain(ROLE);
  });

  it('refuses a token whose kid is unknown even after fetching the JWKS again', async () => {
    await value(await good()); // the key set is loaded
    const before = idp.jwksFetches();
    const stranger = await idp.unpublishedKey();
    const r = await value(await idp.token(AUDIENCE, { key: stranger, claims: { roles: [ROLE] } }));
    expect(r.status).toBe(401);
    expect(r.body.error?.message).toMatch(/could not be verified/);
    expect(idp.jwksFetches()).toBeGreaterThan(before);
  });

  it('refuses a token in the query string, even with a valid header', async () => {
    const token = await good();
    const res = await fetch(`${stack.host.url}/api/v1/segments?access_token=${token}`, { headers: { ...ADDIN, authorization: `Bearer ${token}` } });
    const body = (await res.json()) as Answer['body'];
    expect(res.status).toBe(401);
    expect(body.error?.type).toBe('token_in_query');
  });

  it('accepts a token signed with a rotated-in key (the JWKS is fetched again for the new kid)', async () => {
    await value(await good());
    const next = await idp.unpublishedKey();
    idp.rotateTo(next);
    const r = await value(await good());
    expect(r.status).toBe(200);
  });

  it('never forwards the user token upstream and never echoes a token; the audit log has one line per request, without tokens, secrets or prices', async () => {
    const token = await good({ name: 'Audit Person', oid: 'oid-audit-1' });
    const before = (await readFile(auditFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const r1 = await call('/api/v1/valuations/batch', { method: 'POST', token, body: { assets: [{ ...VALUATION, year: 2011, purchase_price: 987654.32 }, { ...VALUATION, year: 2012 }] } });
    const r2 = await call('/api/v1/valuations/batch', { method: 'POST', token, body: { assets: [{ ...VALUATION, year: 2011, purchase_price: 987654.32 }, { ...VALUATION, year: 2012 }] } });
    const r3 = await value(undefined);
    expect(r1.status).toBe(200);
    expect(r2.status).toBe(200);
    expect(r3.status).toBe(401);
    for (const r of [r1, r2, r3]) expect(r.text).not.toContain(token);
    // The sandbox only sees the host's own account (its log names the client id, never another's token).
    const upstream = await stack.log();
    expect(upstream.every((l) => l.client_id === stack.account.client_id || l.client_id === null)).toBe(true);
    await stack.host.close().catch(() => undefined); // flushes the audit log; the stack closes it again harmlessly
    const text = await readFile(auditFile, 'utf8');
    const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = lines.slice(before);
    expect(mine).toHaveLength(3);
    expect(mine[0]).toMatchObject({ user_id: 'oid-audit-1', user_name: 'Audit Person', operation: 'batchValuations', assets: 2, source: 'upstream', status: 200 });
    expect(mine[1]).toMatchObject({ user_id: 'oid-audit-1', operation: 'batchValuations', assets: 2, source: 'hit', status: 200 });
    expect(mine[2]).toMatchObject({ user_id: null, operation: 'api', source: 'none', status: 401 });
    expect(Object.keys(mine[0]!).sort()).toEqual(['assets', 'duration_ms', 'operation', 'source', 'status', 'time', 'user_id', 'user_name']);
    expect(text).not.toContain(token.split('.')[2]!);
    expect(text).not.toContain(stack.account.client_secret);
    expect(text).not.toContain('987654');
  });
});

describe('ADDIN_AUTH settings', () => {
  it('defaults to none on 127.0.0.1 and key with ADDIN_DEPLOYMENT_KEY', () => {
    expect(hostConfigFromEnv({}).auth).toEqual({ mode: 'none' });
    expect(hostConfigFromEnv({ ADDIN_DEPLOYMENT_KEY: 'abcdefgh12' }).auth).toEqual({ mode: 'key', key: 'abcdefgh12' });
  });

  it('refuses none on any other address, naming the ways out', () => {
    expect(() => hostConfigFromEnv({ ADDIN_HOST: '0.0.0.0' })).toThrow(/ADDIN_AUTH=none .* allowed only when the host listens on 127\.0\.0\.1.*ADDIN_AUTH=entra/);
    expect(() => hostConfigFromEnv({ ADDIN_HOST: '0.0.0.0', ADDIN_AUTH: 'none' })).toThrow(/allowed only/);
    expect(hostConfigFromEnv({ ADDIN_HOST: '0.0.0.0', ADDIN_DEPLOYMENT_KEY: 'abcdefgh12' }).auth.mode).toBe('key');
  });

  it('host refuses to start with none off 127.0.0.1', async () => {
    await expect(startAddinHost({ host: '0.0.0.0', port: 0, tls: { cert: 'x', key: 'y' }, service: { baseUrl: 'http://127.0.0.1:1/v1', clientId: 'a', clientSecret: 'b' } })).rejects.toThrow(/allowed only when the host listens on 127\.0\.0\.1/);
  });

  it('entra: builds the issuer from the tenant, needs an audience, refuses shared endpoints and http:// issuers off 127.0.0.1', () => {
    const c = hostConfigFromEnv({ ADDIN_AUTH: 'entra', ADDIN_AUTH_TENANT: 'contoso.onmicrosoft.com', ADDIN_AUTH_AUDIENCE: 'abc-client-id, api://addin.contoso.com/abc-client-id', ADDIN_AUTH_ROLE: 'SVC.User' });
    expect(c.auth).toEqual({ mode: 'entra', entra: { issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0', audiences: ['abc-client-id', 'api://addin.contoso.com/abc-client-id'], role: 'SVC.User', clientId: 'abc-client-id' } });
    expect(() => hostConfigFromEnv({ ADDIN_AUTH: 'entra', ADDIN_AUTH_TENANT: 'contoso.onmicrosoft.com' })).toThrow(/ADDIN_AUTH_AUDIENCE is required/);
    expect(() => hostConfigFromEnv({ ADDIN_AUTH: 'entra', ADDIN_AUTH_TENANT: 'common', ADDIN_AUTH_AUDIENCE: 'x' })).toThrow(/not "common"/);
    expect(() => hostConfigFromEnv({ ADDIN_AUTH: 'entra', ADDIN_AUTH_ISSUER: 'http://idp.example.com/t/v2.0', ADDIN_AUTH_AUDIENCE: 'x' })).toThrow(/http:\/\/ issuer is accepted only on 127\.0\.0\.1/);
    expect(hostConfigFromEnv({ ADDIN_AUTH: 'entra', ADDIN_AUTH_ISSUER: 'http://127.0.0.1:9/t/v2.0', ADDIN_AUTH_AUDIENCE: 'x' }).auth.mode).toBe('entra');
    expect(() => hostConfigFromEnv({ ADDIN_AUTH: 'sometimes' })).toThrow(/ADDIN_AUTH must be entra, key or none|ADDIN_AUTH must be entra/);
  });
});
