import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox';
import { call, errorOf, getToken, start } from './helpers';

/** Statuses of `count` sequential calls (0 when the connection was dropped). */
async function statuses(url: string, token: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    try {
      out.push((await call(url, 'GET', '/segments', { token })).status);
    } catch {
      out.push(0);
    }
  }
  return out;
}

const share = (xs: number[], v: number) => xs.filter((x) => x === v).length / xs.length;

describe('fault injection', () => {
  it('parses the CLI form and refuses nonsense', () => {
    expect(parseFaults('error=0.1,drop=0.05,latency=5-50,r429=0.02')).toEqual({ error: 0.1, drop: 0.05, latency: { min: 5, max: 50 }, r429: 0.02 });
    expect(parseFaults('latency=20')).toEqual({ latency: { min: 20, max: 20 } });
    expect(() => parseFaults('error=2')).toThrow(/between 0 and 1/);
    expect(() => parseFaults('boom=0.1')).toThrow(/unknown kind 'boom'/);
    expect(() => parseFaults('latency=50-5')).toThrow(/backwards/);
    expect(() => parseFaults('error=0.6,drop=0.6')).toThrow(/more than 1/);
  });

  it('error: about that share of calls are 500 internal_error, the same ones for the same seed', async () => {
    const runs: number[][] = [];
    for (let k = 0; k < 2; k++) {
      const sb = await start({ faults: 'error=0.25', seed: 42 });
      try {
        const token = (await getToken(sb.url, 'demo-enterprise')).access_token; // token issuance is never faulted
        runs.push(await statuses(sb.url, token, 120));
        const r = await call(sb.url, 'GET', '/segments', { token });
        if (r.status === 500) expect(errorOf(r).action).toBe('retry_with_backoff');
      } finally {
        await sb.close();
      }
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(share(runs[0]!, 500)).toBeGreaterThan(0.12);
    expect(share(runs[0]!, 500)).toBeLessThan(0.4);
    expect(share(runs[0]!, 500) + share(runs[0]!, 200)).toBe(1);
    const other = await start({ faults: 'error=0.25', seed: 43 });
    try {
      expect(await statuses(other.url, (await getToken(other.url, 'demo-enterprise')).access_token, 120)).not.toEqual(runs[0]);
    } finally {
      await other.close();
    }
  });

  it('drop: the connection closes with no response, so fetch rejects', async () => {
    const sb = await start({ faults: { drop: 0.3 }, seed: 7 });
    try {
      const token = (await getToken(sb.url, 'demo-enterprise')).access_token;
      const s = await statuses(sb.url, token, 60);
      expect(share(s, 0)).toBeGreaterThan(0.1);
      expect(share(s, 0)).toBeLessThan(0.55);
      expect(share(s, 0) + share(s, 200)).toBe(1);
    } finally {
      await sb.close();
    }
  });

  it('latency: calls take at least the added time', async () => {
    const sb = await start({ faults: 'latency=60-80', seed: 3 });
    try {
      const token = (await getToken(sb.url, 'demo-enterprise')).access_token;
      const t0 = performance.now();
      const s = await statuses(sb.url, token, 5);
      const perCall = (performance.now() - t0) / 5;
      expect(s).toEqual([200, 200, 200, 200, 200]);
      expect(perCall).toBeGreaterThanOrEqual(58);
      expect(perCall).toBeLessThan(400);
    } finally {
      await sb.close();
    }
  });

  it('r429: spurious 429 rate_limited with Retry-After that spends no budget', async () => {
    const sb = await start({ faults: 'r429=0.5', seed: 11 });
    try {
      const token = (await getToken(sb.url, 'demo-pro')).access_token;
      let spent = 0;
      let seen429 = 0;
      for (let i = 0; i < 30; i++) {
        const r = await call(sb.url, 'GET', '/segments', { token });
        if (r.status === 429) {
          seen429++;
          expect(r.headers.get('retry-after')).toBe('1');
          expect(errorOf(r).type).toBe('rate_limited');
        } else {
          expect(r.status).toBe(200);
          spent++;
        }
        expect(Number(r.headers.get('x-ratelimit-remaining-day'))).toBe(50_000 - spent);
      }
      expect(seen429).toBeGreaterThan(5);
      expect(seen429).toBeLessThan(25);
    } finally {
      await sb.close();
    }
  });
});

describe('request log', () => {
  it('writes one JSON line per request with items and never a token or secret', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-log-')), 'requests.jsonl');
    const sb = await start({ logFile: file });
    const t = await getToken(sb.url, 'demo-pro');
    const assets = [1, 2, 3].map((i) => ({ segment: 'wine', producer: 'Petrus', model: 'Pomerol', vintage: 2000 + i }));
    await call(sb.url, 'POST', '/valuations/batch', { token: t.access_token, body: { assets } });
    await call(sb.url, 'GET', '/nowhere', { token: t.access_token });
    await call(sb.url, 'POST', '/exit', { token: t.access_token, body: { asset_id: 'SVC-WIN-PETRUS-POMEROL-2001', current_value: 1 } });
    await sb.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(t.access_token);
    expect(text).not.toContain(t.refresh_token!);
    expect(text).not.toContain('demo-pro-secret');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.method, l.path, l.status, l.items, l.client_id])).toEqual([
      ['POST', '/v1/auth/token', 200, 0, null],
      ['POST', '/v1/valuations/batch', 200, 3, 'demo-pro'],
      ['GET', '/v1/nowhere', 404, 0, null],
      ['POST', '/v1/exit', 403, 0, 'demo-pro'],
    ]);
    for (const l of lines) {
      expect(Object.keys(l).sort()).toEqual(['client_id', 'items', 'method', 'path', 'request_id', 'status', 't']);
      expect(l.request_id).toMatch(/^req_[0-9a-f]{24}$/);
      expect(Number.isNaN(Date.parse(String(l.t)))).toBe(false);
    }
  });

  it('a caller that aborts during injected latency is logged as 499 and the handler does not hang', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sb-abort-')), 'log.jsonl');
    const sb = await start({ faults: 'latency=300-300', logFile: file });
    try {
      const token = (await getToken(sb.url, 'demo-enterprise')).access_token;
      const body = JSON.stringify({ segment: 'watches', brand: 'Rolex', model: 'Daytona', reference: '116500LN' });
      // Events, not timing: "100 Continue" proves the sandbox has the request; the caller then
      // goes away without its body, so however loaded the machine, the answer can only be a 499.
      const url = new URL(sb.url);
      const socket = connect(Number(url.port), url.hostname);
      socket.write(
        `POST ${url.pathname}/valuations HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
      );
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.destroy();
      // The line is written when the handler gives up; the test's own timeout is the only deadline.
      let lines: { path: string; status: number }[] = [];
      while (!lines.some((l) => l.path.endsWith('/valuations'))) {
        await new Promise((r) => setTimeout(r, 50));
        lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { path: string; status: number });
      }
      expect(lines.filter((l) => l.path.endsWith('/valuations')).map((l) => l.status)).toEqual([499]);
      // The server still answers the next caller normally.
      expect((await call(sb.url, 'POST', '/valuations', { token, body: JSON.parse(body) })).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
