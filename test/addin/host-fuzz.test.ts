import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAddin } from '../../addin/build/build';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { startStack, type Stack } from './stack';

/**
 * A bounded fuzz pass against the real host over HTTP: valid request bodies of every route
 * that takes one, mutated (random bytes flipped, cut, inserted; fields replaced by arbitrary
 * JSON; whole arbitrary JSON bodies). The host must answer every one without a 500 and
 * without hanging, and still answer afterwards. FUZZ_RUNS raises the count.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** Far longer than any answer takes: a request still open after this is a hang. */
const HANG_MS = 20_000;

let stack: Stack;
let dist: string;

const SEEDS: { target: string; body: Record<string, unknown> }[] = [
  { target: '/api/v1/valuations', body: { segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN', year: 2021, condition: 'excellent' } },
  { target: '/api/v1/valuations/batch', body: { assets: [{ segment: 'art', brand: 'Banksy', model: 'Girl with Balloon', year: 2004 }, { asset_id: 'SVC-WAT-ROLEX-126610LN-2021' }], currency: 'EUR' } },
  { target: '/api/v1/scores', body: { asset_id: 'SVC-WAT-ROLEX-126610LN-2021' } },
  { target: '/api/v1/scores/breakdown', body: { asset_id: 'SVC-WAT-ROLEX-126610LN-2021' } },
  { target: '/api/v1/projections', body: { asset_id: 'SVC-WAT-ROLEX-126610LN-2021', current_value: 15000, currency: 'USD', horizons: [12, 24] } },
  { target: '/api/v1/exit', body: { asset_id: 'SVC-WAT-ROLEX-126610LN-2021', current_value: 15000, urgency: 'standard' } },
  { target: '/addin/report', body: { format: 'json', portfolio_name: 'Fuzz', sheet: 'Holdings', first_row: 1, currency: 'USD', grid: [['segment', 'brand', 'model', 'year'], ['watches', 'Rolex', 'Submariner', 2021]] } },
];

function post(target: string, body: Buffer): Promise<number> {
  const u = new URL(stack.host.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: Number(u.port), method: 'POST', path: target, headers: { 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, 'content-length': String(body.length) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`no answer within ${HANG_MS} ms: a hang`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Replaces the value at a random path of `value` (found by walking `choices`) with `replacement`. */
function replaceAt(value: unknown, choices: number[], replacement: unknown): unknown {
  if (choices.length === 0 || value === null || typeof value !== 'object') return replacement;
  const keys = Object.keys(value as object);
  if (keys.length === 0) return replacement;
  const [first, ...rest] = choices;
  const key = keys[first! % keys.length]!;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  (copy as Record<string, unknown>)[key] = replaceAt((value as Record<string, unknown>)[key], rest, replacement);
  return copy;
}

const seed = fc.constantFrom(...SEEDS);
const byteMutation = fc.record({
  kind: fc.constantFrom('flip', 'cut', 'insert', 'delete'),
  at: fc.nat(),
  byte: fc.integer({ min: 0, max: 255 }),
});

const request = fc.oneof(
  // Random byte mutations of a valid body.
  fc.tuple(seed, fc.array(byteMutation, { minLength: 1, maxLength: 6 })).map(([s, mutations]) => {
    let bytes = Buffer.from(JSON.stringify(s.body));
    for (const m of mutations) {
      const at = bytes.length === 0 ? 0 : m.at % bytes.length;
      if (m.kind === 'flip') bytes[at] = m.byte;
      else if (m.kind === 'cut') bytes = bytes.subarray(0, at);
      else if (m.kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([m.byte]), bytes.subarray(at)]);
      else bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    }
    return { target: s.target, body: bytes };
  }),
  // A field (at any depth) replaced by arbitrary JSON.
  fc.tuple(seed, fc.array(fc.nat(), { maxLength: 4 }), fc.jsonValue({ maxDepth: 4 })).map(([s, where, replacement]) => ({ target: s.target, body: Buffer.from(JSON.stringify(replaceAt(s.body, where, replacement))) })),
  // Arbitrary JSON as the whole body.
  fc.tuple(seed, fc.jsonValue({ maxDepth: 5 })).map(([s, v]) => ({ target: s.target, body: Buffer.from(JSON.stringify(v) ?? 'null') })),
);

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-fuzz-'));
  await buildAddin({ outDir: dist });
  stack = await startStack({ host: { distDir: dist } });
});

afterAll(async () => {
  await stack?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('fuzzing the host', () => {
  it(`answers ${RUNS} mutated bodies without a 500 or a hang, and still answers afterwards`, async () => {
    const statuses = new Map<number, number>();
    const upstreamFaults: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async ({ target, body }) => {
        const status = await post(target, body);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const what = `${target} ${body.toString('utf8').slice(0, 300)}`;
        expect(status, what).toBeGreaterThanOrEqual(200);
        // 500 is the host's own failure and never allowed; 502 says the service's answer broke the
        // contract (the sandbox's own bounds are another engineer's fix: counted, not hidden).
        if (status === 502) upstreamFaults.push(what);
        else expect(status, what).toBeLessThan(500);
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
    // Both kinds of answer were reached: the pass is not all refusals.
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    if (upstreamFaults.length > 0) console.warn(`host fuzz: ${upstreamFaults.length} of ${RUNS} answered 502 (the service broke its contract), first: ${upstreamFaults[0]}`);
    expect(upstreamFaults.length).toBeLessThan(RUNS / 20);
    const after = await fetch(`${stack.host.url}/addin/status`, { headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE } });
    expect(after.status).toBe(200);
  }, 300_000);
});
