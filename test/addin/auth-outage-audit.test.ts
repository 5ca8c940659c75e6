import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from './stack';
import { startOidcProvider, type OidcProvider } from '../support/oidc-provider';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import type { AuditLine } from '../../addin/server/audit-log';
import type { AddinHostOptions } from '../../addin/server/host';

/**
 * Issue 29: while the sign-in provider fails, the host does not ask it again on every request
 * (exponential backoff on an injected clock, counted at the provider); and every refusal —
 * cross-site, sign-in, role, the daily cap — is an audit line naming the user when known.
 */

const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE };
const AUDIENCE = 'api://addin.example.com/outage';
const ROLE = 'SVC.User';
const VALUATION = { segment: 'watches', brand: 'Rolex', model: 'Submariner', year: 2020 };

interface Answer {
  status: number;
  type: string | undefined;
  message: string | undefined;
  retryAfter: string | null;
}

async function value(stack: Stack, token: string | undefined, extra: Record<string, string> = {}, body: unknown = VALUATION): Promise<Answer> {
  const headers: Record<string, string> = { ...ADDIN, 'content-type': 'application/json', ...extra };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${stack.host.url}/api/v1/valuations`, { method: 'POST', headers, body: JSON.stringify(body) });
  const parsed = (await res.json()) as { error?: { type: string; message: string } };
  return { status: res.status, type: parsed.error?.type, message: parsed.error?.message, retryAfter: res.headers.get('retry-after') };
}

async function withEntraHost(idp: OidcProvider, host: Partial<AddinHostOptions>, run: (stack: Stack, dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-auth-outage-'));
  await writeFile(path.join(dir, 'taskpane.html'), '<!doctype html><title>SVC</title>');
  const stack = await startStack({ host: { distDir: dir, auditLog: path.join(dir, 'audit.jsonl'), ...host } });
  try {
    await run(stack, dir);
  } finally {
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function auditLines(dir: string): Promise<AuditLine[]> {
  return (await readFile(path.join(dir, 'audit.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditLine);
}

describe('the sign-in provider failing: backoff, not a fetch per request', () => {
  it('discovery: one attempt per backoff step (1 s doubling, capped), a 503 saying the provider is unreachable meanwhile, then normal service', async () => {
    const idp = await startOidcProvider();
    let t = 1_000_000;
    idp.failing('discovery');
    try {
      const entra = { issuer: idp.issuer, audiences: [AUDIENCE], providerBackoff: { firstMs: 1_000, maxMs: 8_000 }, now: () => t };
      await withEntraHost(idp, { auth: { mode: 'entra', entra } }, async (stack) => {
        const good = await idp.token(AUDIENCE);
        // Twenty requests, garbage tokens and good ones alike: the provider is asked once.
        for (let i = 0; i < 20; i++) {
          const r = await value(stack, i % 2 === 0 ? 'garbage.token.here' : good);
          expect(r.status).toBe(503);
          expect(r.type).toBe('sign_in_unavailable');
          expect(r.message).toMatch(/sign-in provider is unreachable/);
          expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
        }
        expect(idp.discoveryFetches()).toBe(1);
        // Each failure doubles the wait: 1 s, 2 s, 4 s, then the 8 s cap.
        let fetches = 1;
        for (const wait of [1_000, 2_000, 4_000, 8_000, 8_000]) {
          t += wait - 1;
          await value(stack, good);
          expect(idp.discoveryFetches(), `just before ${wait} ms`).toBe(fetches);
          t += 1;
          for (let i = 0; i < 3; i++) expect((await value(stack, good)).status).toBe(503);
          expect(idp.discoveryFetches(), `at ${wait} ms`).toBe(++fetches);
        }
        // The provider is back: after the wait, one discovery, and sign-ins work again.
        idp.failing(undefined);
        t += 8_000;
        expect((await value(stack, good)).status).toBe(200);
        expect((await value(stack, good)).status).toBe(200);
        expect(idp.discoveryFetches()).toBe(fetches + 1);
      });
    } finally {
      await idp.close();
    }
  });

  it('keys (JWKS): fetched once per backoff step while they fail, then used again', async () => {
    const idp = await startOidcProvider();
    let t = 1_000_000;
    idp.failing('jwks');
    try {
      const entra = { issuer: idp.issuer, audiences: [AUDIENCE], jwksCooldownMs: 0, providerBackoff: { firstMs: 1_000, maxMs: 8_000 }, now: () => t };
      await withEntraHost(idp, { auth: { mode: 'entra', entra } }, async (stack) => {
        const good = await idp.token(AUDIENCE);
        for (let i = 0; i < 10; i++) {
          const r = await value(stack, good);
          expect(r.status).toBe(503);
          expect(r.message).toMatch(/sign-in provider is unreachable/);
        }
        expect(idp.jwksFetches()).toBe(1);
        t += 1_000;
        expect((await value(stack, good)).status).toBe(503);
        expect((await value(stack, good)).status).toBe(503);
        expect(idp.jwksFetches()).toBe(2);
        idp.failing(undefined);
        expect((await value(stack, good)).status).toBe(503); // still waiting out the 2 s step
        expect(idp.jwksFetches()).toBe(2);
        t += 2_000;
        expect((await value(stack, good)).status).toBe(200);
        expect(idp.jwksFetches()).toBe(3);
      });
    } finally {
      await idp.close();
    }
  });
});

describe('every refusal is an audit line naming the user when known', () => {
  it('cross-site, no sign-in, a bad token, an expired sign-in, a missing role, the daily cap, the provider unreachable', async () => {
    const idp = await startOidcProvider();
    let t = 1_000_000;
    try {
      const entra = { issuer: idp.issuer, audiences: [AUDIENCE], role: ROLE, jwksCooldownMs: 0, now: () => t };
      await withEntraHost(idp, { auth: { mode: 'entra', entra }, perUserDailyCap: 1 }, async (stack, dir) => {
        const alice = await idp.token(AUDIENCE, { claims: { oid: 'oid-alice', name: 'Alice', roles: [ROLE] } });
        const now = Math.floor(Date.now() / 1000);
        const expired = await idp.token(AUDIENCE, { claims: { oid: 'oid-late', roles: [ROLE], iat: now - 7200, nbf: now - 7200, exp: now - 600 } });
        const noRole = await idp.token(AUDIENCE, { claims: { oid: 'oid-norole', name: 'No Role', roles: ['Other'] } });
        const forged = await idp.token(AUDIENCE, { key: await idp.unpublishedKey(), claims: { oid: 'oid-forged', roles: [ROLE] } });
        expect((await value(stack, alice, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).type).toBe('cross_site_refused');
        expect((await value(stack, undefined)).type).toBe('sign_in_required');
        expect((await value(stack, forged)).type).toBe('invalid_token');
        expect((await value(stack, expired)).type).toBe('token_expired');
        expect((await value(stack, noRole)).type).toBe('role_required');
        expect((await value(stack, alice, {}, { ...VALUATION, year: 2001 })).status).toBe(200);
        expect((await value(stack, alice, {}, { ...VALUATION, year: 2002 })).type).toBe('user_daily_share_used');
        await stack.host.close(); // flushes the audit log (the stack closes it again harmlessly)
        const lines = await auditLines(dir);
        const refusals = lines.filter((l) => l.status >= 400).map((l) => ({ user_id: l.user_id, error: l.error, status: l.status, source: l.source }));
        expect(refusals).toEqual([
          { user_id: null, error: 'cross_site_refused', status: 403, source: 'none' },
          { user_id: null, error: 'sign_in_required', status: 401, source: 'none' },
          { user_id: null, error: 'invalid_token', status: 401, source: 'none' },
          { user_id: 'oid-late', error: 'token_expired', status: 401, source: 'none' },
          { user_id: 'oid-norole', error: 'role_required', status: 403, source: 'none' },
          { user_id: 'oid-alice', error: 'user_daily_share_used', status: 429, source: 'none' },
        ]);
        expect(lines.find((l) => l.error === 'role_required')?.user_name).toBe('No Role');
        // A served request carries no error field.
        expect(lines.find((l) => l.status === 200)).not.toHaveProperty('error');
      });
      // The provider unreachable: the refusal is audited too.
      idp.failing('discovery');
      await withEntraHost(idp, { auth: { mode: 'entra', entra } }, async (stack, dir) => {
        expect((await value(stack, 'garbage')).status).toBe(503);
        await stack.host.close();
        expect((await auditLines(dir)).map((l) => [l.user_id, l.error, l.status])).toEqual([[null, 'sign_in_unavailable', 503]]);
      });
    } finally {
      await idp.close();
    }
  });

  it('with a deployment key, refusals name the caller\'s address (the only identity the mode has)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-audit-key-'));
    const stack = await startStack({ host: { distDir: dir, auditLog: path.join(dir, 'audit.jsonl'), deploymentKey: 'audit-key-2929' } });
    try {
      expect((await value(stack, undefined, { origin: 'https://evil.example', 'x-addin-deployment-key': 'audit-key-2929' })).type).toBe('cross_site_refused');
      expect((await value(stack, undefined, { 'x-addin-deployment-key': 'wrong-key-0000' })).type).toBe('deployment_key_required');
      await stack.host.close();
      const lines = await auditLines(dir);
      expect(lines.map((l) => [l.user_id, l.error])).toEqual([
        [expect.stringMatching(/^address:(::ffff:)?127\.0\.0\.1$/), 'cross_site_refused'],
        [expect.stringMatching(/^address:(::ffff:)?127\.0\.0\.1$/), 'deployment_key_required'],
      ]);
      expect(await readFile(path.join(dir, 'audit.jsonl'), 'utf8')).not.toContain('audit-key-2929');
    } finally {
      await stack.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
