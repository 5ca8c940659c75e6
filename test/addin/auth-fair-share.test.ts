import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from './stack';
import { startOidcProvider, type OidcProvider } from '../support/oidc-provider';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { AuditLog, type AuditLine } from '../../addin/server/audit-log';
import type { ValuationRequest } from '../../src/wire';

const ADDIN = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, 'content-type': 'application/json' };
const AUDIENCE = 'api://addin.example.com/fair-share';
/** A Starter-like account in compressed windows: 10 calls per 2 s window (the big user's 100 calls take ten windows). */
const WINDOW_MS = 2_000;
const PER_WINDOW = 10;
/** Calls of the big user still queued when the small user asks, at least: three windows' budget. */
const QUEUED = 3 * PER_WINDOW;

/** `n` distinct assets (each its own cache key, so each needs the service). */
function distinctAssets(n: number, offset: number): ValuationRequest[] {
  return Array.from({ length: n }, (_, i) => ({ segment: 'watches', brand: 'Rolex', model: 'Submariner', year: 1950 + ((i + offset) % 75), quantity: 1 + Math.floor((i + offset) / 75) }));
}

async function batch(stack: Stack, token: string, assets: ValuationRequest[]): Promise<{ status: number; text: string }> {
  const res = await fetch(`${stack.host.url}/api/v1/valuations/batch`, { method: 'POST', headers: { ...ADDIN, authorization: `Bearer ${token}` }, body: JSON.stringify({ assets }) });
  return { status: res.status, text: await res.text() };
}

describe('fair share: users are served round-robin when the account\'s minute budget is contended', () => {
  let idp: OidcProvider;
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    idp = await startOidcProvider();
    dir = await mkdtemp(path.join(tmpdir(), 'svc-fair-share-'));
    stack = await startStack({
      tier: 'starter',
      sandbox: { minuteMs: WINDOW_MS, accounts: [{ client_id: 'demo-starter', client_secret: 'demo-starter-secret', tier: 'starter', per_minute: PER_WINDOW }] },
      host: { auth: { mode: 'entra', entra: { issuer: idp.issuer, audiences: [AUDIENCE] } }, auditLog: path.join(dir, 'audit.jsonl') },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await idp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("one user's 5,000 distinct assets do not starve another's 10: the small user's batch lands within two windows", async () => {
    const big = await idp.token(AUDIENCE, { claims: { oid: 'user-big', name: 'Big Sheet' } });
    const small = await idp.token(AUDIENCE, { claims: { oid: 'user-small', name: 'Small Sheet' } });
    const bigCalls = Array.from({ length: 100 }, (_, k) => batch(stack, big, distinctAssets(50, k * 50)));
    // Every one of the big user's calls has reached the account's budget (granted — a retry counts again — or waiting) before the small user asks…
    const fair = stack.host.fairShare;
    await vi.waitFor(() => expect(fair.waiting('user-big') + fair.usedToday('user-big')).toBeGreaterThanOrEqual(100), { timeout: 90_000, interval: 5 });
    // …and at least three windows' worth are still waiting (the budget is contended).
    expect(fair.waiting('user-big')).toBeGreaterThanOrEqual(QUEUED);
    // First come, first served, the small user would now wait three windows or more.
    const askedInWindow = Math.floor(Date.now() / WINDOW_MS);
    const smallAnswer = await batch(stack, small, distinctAssets(10, 100_000));
    expect(smallAnswer.status).toBe(200);
    const bigAnswers = await Promise.all(bigCalls);
    expect(bigAnswers.every((a) => a.status === 200)).toBe(true);

    const window = (t: string) => Math.floor(Date.parse(t) / WINDOW_MS);
    const upstream = (await stack.log()).filter((l) => l.path.endsWith('/valuations/batch') && l.status === 200);
    const bigLines = upstream.filter((l) => l.items === 50);
    const smallLines = upstream.filter((l) => l.items === 10);
    expect(bigLines).toHaveLength(100);
    expect(smallLines).toHaveLength(1);
    // The small user's cells settled within two windows of asking (the window asked in, or the next)…
    expect(window(smallLines[0]!.t) - askedInWindow).toBeLessThanOrEqual(1);
    // …while the big user's calls went on for windows after (the budget was contended throughout).
    expect(window(bigLines[bigLines.length - 1]!.t) - window(smallLines[0]!.t)).toBeGreaterThanOrEqual(2);

    // One audit line per request, each with its user, no token.
    await stack.host.close();
    const text = await readFile(path.join(dir, 'audit.jsonl'), 'utf8');
    const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditLine);
    expect(lines.filter((l) => l.user_id === 'user-big' && l.operation === 'batchValuations' && l.assets === 50)).toHaveLength(100);
    expect(lines.filter((l) => l.user_id === 'user-small' && l.user_name === 'Small Sheet' && l.assets === 10 && l.source === 'upstream')).toHaveLength(1);
    for (const token of [big, small]) {
      expect(text).not.toContain(token.split('.')[2]!);
      for (const a of [...bigAnswers, smallAnswer]) expect(a.text).not.toContain(token);
    }
  }, 180_000);
});

describe('per-user daily cap and per-user refresh limit', () => {
  it('a user past their daily share is refused with the reason; another user is still served', async () => {
    const idp = await startOidcProvider();
    const stack = await startStack({ host: { auth: { mode: 'entra', entra: { issuer: idp.issuer, audiences: [AUDIENCE] } }, perUserDailyCap: 2 } });
    try {
      const capped = await idp.token(AUDIENCE, { claims: { oid: 'user-capped' } });
      const other = await idp.token(AUDIENCE, { claims: { oid: 'user-other' } });
      expect((await batch(stack, capped, distinctAssets(3, 0))).status).toBe(200);
      expect((await batch(stack, capped, distinctAssets(3, 10))).status).toBe(200);
      const third = await batch(stack, capped, distinctAssets(3, 20));
      expect(third.status).toBe(429);
      expect(JSON.parse(third.text)).toMatchObject({ error: { type: 'user_daily_share_used' } });
      expect(third.text).toMatch(/daily share of the firm's valuation budget \(2 service calls\)/);
      // Answered from the cache costs nothing: still served.
      expect((await batch(stack, capped, distinctAssets(3, 0))).status).toBe(200);
      expect((await batch(stack, other, distinctAssets(3, 30))).status).toBe(200);
      const status = await fetch(`${stack.host.url}/addin/status`, { headers: { ...ADDIN, authorization: `Bearer ${capped}` } });
      expect(await status.json()).toMatchObject({ user: { calls_today: 2, daily_cap: 2, waiting: 0 } });
    } finally {
      await stack.close();
      await idp.close();
    }
  });

  it('/addin/refresh is limited per user: a second refresh by the same user is a 429', async () => {
    const idp = await startOidcProvider();
    const stack = await startStack({ host: { auth: { mode: 'entra', entra: { issuer: idp.issuer, audiences: [AUDIENCE] } }, refreshIntervalMs: 60_000 } });
    try {
      const token = await idp.token(AUDIENCE, { claims: { oid: 'user-refresh' } });
      const refresh = () => fetch(`${stack.host.url}/addin/refresh`, { method: 'POST', headers: { ...ADDIN, authorization: `Bearer ${token}` } });
      expect((await refresh()).status).toBe(200);
      const again = await refresh();
      expect(again.status).toBe(429);
      expect(await again.text()).toMatch(/You cleared the host's cache moments ago/);
    } finally {
      await stack.close();
      await idp.close();
    }
  });
});

describe('audit log rotation', () => {
  it('rotates by size: no file passes the limit, older files shift to .1 .2, every line is kept in order', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-audit-rotate-'));
    try {
      const file = path.join(dir, 'audit.jsonl');
      const log = new AuditLog(file, 1_000);
      for (let i = 0; i < 20; i++) log.write({ time: new Date(0).toISOString(), user_id: `u${i}`, user_name: null, operation: 'createValuation', assets: 1, source: 'hit', status: 200, duration_ms: i });
      await log.flush();
      const read = async (f: string) => (await readFile(f, 'utf8').catch(() => '')).split('\n').filter(Boolean);
      const files = [`${file}.5`, `${file}.4`, `${file}.3`, `${file}.2`, `${file}.1`, file];
      const all: string[] = [];
      expect((await read(`${file}.2`)).length).toBeGreaterThan(0);
      for (const f of files) {
        const text = await readFile(f, 'utf8').catch(() => '');
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1_000);
        all.push(...(await read(f)));
      }
      expect(all.map((l) => (JSON.parse(l) as AuditLine).user_id)).toEqual(Array.from({ length: 20 }, (_, i) => `u${i}`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
