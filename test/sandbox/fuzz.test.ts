import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse, OPERATIONS, matchOperation, type OperationDef, type OperationName } from '../../src/wire';
import { REQUEST_EXAMPLES } from '../../src/wire/examples';
import { arbitraryFromJsonSchema, byteMutations, deeplyNested, jsonSchemaOf, nearValid } from '../support/fuzz';
import { getToken, start, type Sandbox } from './helpers';

/**
 * Issue 17: a bounded fuzz pass over HTTP. For every operation with a body: bodies generated
 * from its wire schema, near-valid bodies and byte mutations of its example; for the others,
 * random path parameters. Every answer must be below 500, JSON, marked x-sandbox, shaped as the
 * operation's response or the service's error, and come within a deadline; the sandbox must
 * still answer afterwards. The seed is fixed so a failure reproduces (FUZZ_SEED overrides it).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = { valid: 80, nearValid: 90, bytes: 90, path: 80 };
/** Generous: a loaded 2-core machine answers in milliseconds; only a hang comes near it. */
const ANSWER_DEADLINE_MS = 20_000;

let sb: Sandbox;
let token: string;
let cases = 0;

beforeAll(async () => {
  sb = await start({ accounts: [{ client_id: 'fuzz', client_secret: 'fuzz-secret', tier: 'enterprise', per_minute: 10_000_000, per_day: 100_000_000 }] });
  token = (await getToken(sb.url, 'fuzz', 'fuzz-secret')).access_token;
});
afterAll(async () => {
  await sb.close();
  // The figure the issue asks for.
  console.log(JSON.stringify({ fuzz_cases: cases, seed: SEED }));
});

const entries = Object.entries(OPERATIONS) as [OperationName, OperationDef][];
const withBody = entries.filter(([, d]) => d.request);
const withParams = entries.filter(([, d]) => d.path.includes('{'));
const examples = REQUEST_EXAMPLES as Partial<Record<OperationName, unknown>>;

/** Sends one case and checks the answer; returns the status. */
async function send(name: OperationName, path: string, body: string | Uint8Array | undefined): Promise<number> {
  const def: OperationDef = OPERATIONS[name];
  cases++;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (def.auth) headers.authorization = `Bearer ${token}`;
  const payload = body instanceof Uint8Array ? Buffer.from(body) : body;
  const res = await fetch(sb.url + path, { method: def.method, headers, body: payload, signal: AbortSignal.timeout(ANSWER_DEADLINE_MS) });
  const text = await res.text();
  const what = `${name} ${path} ${res.status}: ${text.slice(0, 300)}\nbody: ${typeof body === 'string' ? body.slice(0, 300) : body ? Buffer.from(body).toString('latin1').slice(0, 300) : ''}`;
  expect(res.status, what).toBeLessThan(500);
  expect(res.headers.get('x-sandbox'), what).toBe('true');
  const json: unknown = JSON.parse(text);
  // A parameter such as 'alerts' or '.' routes to another operation (/signals/alerts, /segments/): check that one's shape.
  const routed = matchOperation(def.method, new URL(res.url).pathname.replace(/^\/v1/, ''));
  const shape = res.ok ? ('name' in routed ? OPERATIONS[routed.name].response : def.response) : ErrorResponse;
  const parsed = shape.safeParse(json);
  expect(parsed.success, `${what}\n${parsed.error?.message ?? ''}`).toBe(true);
  return res.status;
}

/** After each pass: the sandbox still serves an ordinary call and a sign-in. */
async function stillAnswers() {
  const res = await fetch(`${sb.url}/segments`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect((await getToken(sb.url, 'fuzz', 'fuzz-secret')).access_token).toBeTruthy();
}

const pathOf = (def: OperationDef, params: Record<string, string> = {}) => def.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? 'watches'));
const options = (numRuns: number) => ({ numRuns, seed: SEED, endOnFailure: true });

describe('fuzz pass against the sandbox', () => {
  it.each(withBody.map(([n]) => [n]))('%s: bodies from the schema, near-valid bodies and byte mutations', async (name) => {
    const def: OperationDef = OPERATIONS[name];
    const path = pathOf(def, { id: 'port_fuzz' });
    const valid = arbitraryFromJsonSchema(jsonSchemaOf(def.request!));
    await fc.assert(fc.asyncProperty(valid, async (b) => void (await send(name, path, JSON.stringify(b)))), options(RUNS.valid));
    await fc.assert(fc.asyncProperty(nearValid(examples[name]), async (b) => void (await send(name, path, JSON.stringify(b) ?? ''))), options(RUNS.nearValid));
    const bytes = new TextEncoder().encode(JSON.stringify(examples[name]));
    await fc.assert(fc.asyncProperty(byteMutations(bytes), async (b) => void (await send(name, path, b))), options(RUNS.bytes));
    await stillAnswers();
  });

  it.each(withParams.map(([n]) => [n]))('%s: random path parameters', async (name) => {
    const def: OperationDef = OPERATIONS[name];
    const body = examples[name] === undefined ? undefined : JSON.stringify(examples[name]);
    const param = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), fc.constantFrom('..', '%2e%2e', 'port_' + 'a'.repeat(5000), 'alerts', 'WATCHES'));
    await fc.assert(fc.asyncProperty(param, async (p) => void (await send(name, pathOf(def, { id: p, segment: p }), body))), options(RUNS.path));
    await stillAnswers();
  });

  it('deeply nested and oversized JSON is refused, not crashed on', async () => {
    for (const depth of [100, 10_000, 100_000]) {
      for (const kind of ['array', 'object', 'mixed'] as const) expect(await send('batchValuations', '/valuations/batch', deeplyNested(depth, kind))).toBe(400);
    }
    await stillAnswers();
  });
});
