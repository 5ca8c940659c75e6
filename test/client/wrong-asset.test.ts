import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetMismatchError, InvalidResponseError, type ServiceClient } from '../../src/client';
import { clientFor, start, watches, type Sandbox } from './helpers';

/**
 * A real HTTP proxy in front of the sandbox that answers for the wrong asset when told to:
 * `rewrite[path]` edits the JSON of that path's successful answers.
 */
type Rewrite = (body: Record<string, unknown>) => void;
async function wrongAnsweringProxy(target: string) {
  const rewrite: Record<string, Rewrite | undefined> = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = req.url!.replace(/^\/v1/, '');
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const upstream = await fetch(target + path, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        let text = await upstream.text();
        const edit = rewrite[path];
        if (edit && upstream.status === 200) {
          const body = JSON.parse(text) as Record<string, unknown>;
          edit(body);
          text = JSON.stringify(body);
        }
        upstream.headers.forEach((v, k) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) res.setHeader(k, v);
        });
        res.writeHead(upstream.status);
        res.end(text);
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, rewrite, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let sb: Sandbox;
let proxy: Awaited<ReturnType<typeof wrongAnsweringProxy>>;
/** Ids the sandbox itself issued, for three different watches and one wine. */
let ids: string[];
let wineId: string;
let viaProxy: ServiceClient;

beforeAll(async () => {
  sb = await start({ minuteMs: 1000 });
  proxy = await wrongAnsweringProxy(sb.url);
  const direct = clientFor(sb, 'demo-enterprise', { tier: 'enterprise', limits: { minuteMs: 1000 } });
  ids = (await direct.valueAll(watches(3, 'W'))).map((o) => (o.ok ? o.value.asset_id : ''));
  wineId = (await direct.valuations.create({ segment: 'wine', producer: 'Château Margaux', model: 'Grand Vin', vintage: 2015 })).asset_id;
  viaProxy = new (direct.constructor as typeof ServiceClient)({
    baseUrl: proxy.url,
    clientId: 'demo-enterprise',
    clientSecret: 'demo-enterprise-secret',
    tier: 'enterprise',
    limits: { minuteMs: 1000 },
    rateLimitKey: `wrong-asset-${Math.random()}`,
  });
});
afterAll(async () => {
  await proxy.close();
  await sb.close();
});

const swapFirstTwo = (key: string) => (body: Record<string, unknown>) => {
  const list = body[key] as { asset_id: string }[];
  [list[0]!.asset_id, list[1]!.asset_id] = [list[1]!.asset_id, list[0]!.asset_id];
};

describe('never a silent wrong number: answers for another asset are refused', () => {
  it('scoreAll: swapped answers fail those two items only, naming both ids', async () => {
    proxy.rewrite['/scores/batch'] = swapFirstTwo('scores');
    try {
      const out = await viaProxy.scoreAll(ids.map((asset_id) => ({ asset_id })));
      const [a, b, c] = out;
      expect(!a!.ok && a!.error).toBeInstanceOf(AssetMismatchError);
      expect(!a!.ok && a!.error.message).toBe(`The service answered for another asset: asked ${ids[0]}, got ${ids[1]}.`);
      expect(!b!.ok && b!.error.message).toBe(`The service answered for another asset: asked ${ids[1]}, got ${ids[0]}.`);
      expect(c!.ok && c!.value.asset_id).toBe(ids[2]);
    } finally {
      proxy.rewrite['/scores/batch'] = undefined;
    }
  });

  it('valueAll by description: an answer for another segment fails that item only', async () => {
    proxy.rewrite['/valuations/batch'] = (body) => {
      (body.valuations as { asset_id: string }[])[1]!.asset_id = wineId;
    };
    try {
      const out = await viaProxy.valueAll(watches(3, 'V'));
      expect(out[0]!.ok).toBe(true);
      const bad = out[1]!;
      expect(!bad.ok && bad.error).toBeInstanceOf(AssetMismatchError);
      expect(!bad.ok && bad.error.message).toBe(`The service answered for another asset: asked for a watches asset, got ${wineId}.`);
      expect(out[2]!.ok).toBe(true);
    } finally {
      proxy.rewrite['/valuations/batch'] = undefined;
    }
  });

  it('a batch answer with one result missing cannot be matched: its items fail, nothing is shifted onto the wrong item', async () => {
    proxy.rewrite['/scores/batch'] = (body) => void (body.scores as unknown[]).splice(0, 1);
    try {
      const out = await viaProxy.scoreAll(ids.map((asset_id) => ({ asset_id })));
      for (const o of out) expect(!o.ok && o.error).toBeInstanceOf(InvalidResponseError);
    } finally {
      proxy.rewrite['/scores/batch'] = undefined;
    }
  });

  it('single-asset methods: score, breakdown, projection, exit and valuation refuse an answer for another asset', async () => {
    const other = ids[1]!;
    proxy.rewrite['/scores'] = (b) => void ((b.score as { asset_id: string }).asset_id = other);
    proxy.rewrite['/scores/breakdown'] = (b) => void ((b.breakdown as { asset_id: string }).asset_id = other);
    proxy.rewrite['/projections'] = (b) => void ((b.projection as { asset_id: string }).asset_id = other);
    proxy.rewrite['/exit'] = (b) => void ((b.exit_strategy as { asset_id: string }).asset_id = other);
    proxy.rewrite['/valuations'] = (b) => void ((b as { asset_id: string }).asset_id = wineId);
    try {
      const asked = ids[0]!;
      const message = `The service answered for another asset: asked ${asked}, got ${other}.`;
      await expect(viaProxy.scores.create({ asset_id: asked })).rejects.toThrow(message);
      await expect(viaProxy.scores.breakdown({ asset_id: asked })).rejects.toThrow(message);
      await expect(viaProxy.projections.create({ asset_id: asked, current_value: 10_000 })).rejects.toThrow(message);
      await expect(viaProxy.exit.analyse({ asset_id: asked, current_value: 10_000 })).rejects.toThrow(message);
      await expect(viaProxy.valuations.create(watches(1, 'S')[0]!)).rejects.toBeInstanceOf(AssetMismatchError);
    } finally {
      for (const k of Object.keys(proxy.rewrite)) proxy.rewrite[k] = undefined;
    }
    // The same calls through the honest proxy succeed (the check does not refuse right answers).
    expect((await viaProxy.scores.breakdown({ asset_id: ids[0]! })).breakdown.asset_id).toBe(ids[0]);
    expect((await viaProxy.scores.create({ asset_id: ids[0]! })).score.asset_id).toBe(ids[0]);
    expect((await viaProxy.valuations.create(watches(1, 'S')[0]!)).asset_id).toMatch(/^SVC-WAT-/);
  });
});
