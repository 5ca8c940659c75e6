import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS, SegmentIdSchema, fieldPath, type OperationDef, type OperationName } from '../../src/wire';
import { REQUEST_EXAMPLES } from '../../src/wire/examples';
import { call, errorOf, getToken, start, type Sandbox } from './helpers';

/**
 * Issue 10: every enumerated field the service validates answers a bad value with `field` and
 * `allowed_values`. The enumerations are found by walking the wire request schemas (as JSON
 * Schema), not listed by hand, so a new one is covered the day it is added.
 */
interface EnumSite {
  operation: OperationName;
  where: 'body' | 'query' | 'path';
  path: (string | number)[];
  values: (string | number)[];
}

type JsonSchema = { enum?: unknown[]; const?: unknown; properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[] };

function enumsIn(schema: JsonSchema, path: (string | number)[] = []): { path: (string | number)[]; values: (string | number)[] }[] {
  const found: { path: (string | number)[]; values: (string | number)[] }[] = [];
  const values = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (values) found.push({ path, values: values as (string | number)[] });
  for (const [key, sub] of Object.entries(schema.properties ?? {})) found.push(...enumsIn(sub, [...path, key]));
  if (schema.items) found.push(...enumsIn(schema.items, [...path, 0]));
  for (const sub of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...enumsIn(sub, path));
  return found;
}

const jsonSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

function enumSites(): EnumSite[] {
  const sites: EnumSite[] = [];
  for (const [operation, def] of Object.entries(OPERATIONS) as [OperationName, OperationDef][]) {
    if (def.request) for (const e of enumsIn(jsonSchema(def.request))) sites.push({ operation, where: 'body', ...e });
    if (def.query) for (const e of enumsIn(jsonSchema(def.query))) sites.push({ operation, where: 'query', ...e });
    // Path parameters named segment take a segment id (the wire's SegmentIdSchema).
    if (def.path.includes('{segment}')) sites.push({ operation, where: 'path', path: ['segment'], values: enumsIn(jsonSchema(SegmentIdSchema))[0]!.values });
  }
  // Deduplicate: one site per operation and path.
  const seen = new Set<string>();
  return sites.filter((s) => {
    const key = `${s.operation} ${s.where} ${fieldPath(s.path)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function withValueAt(body: unknown, path: (string | number)[], value: unknown): unknown {
  const root: unknown = structuredClone(body ?? {});
  let node = root as Record<string | number, unknown>;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = path[i + 1];
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') node[key] = typeof next === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return root;
}

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start({ accounts: [{ client_id: 'enums', client_secret: 'enums-secret', tier: 'enterprise', per_minute: 100_000, per_day: 1_000_000 }] });
  token = (await getToken(sb.url, 'enums')).access_token;
});
afterAll(() => sb.close());

describe('allowed_values on every enumerated field', () => {
  const sites = enumSites();

  it('the walk finds the enumerations the spec names (horizons, scenarios, urgency, condition, segment, grant types, currency)', () => {
    const fields = new Set(sites.map((s) => fieldPath(s.path)));
    for (const f of ['horizons[0]', 'scenarios[0]', 'urgency', 'condition', 'segment', 'grant_type', 'currency', 'assets[0].segment', 'assets[0].condition', 'assets[0].currency']) {
      expect(fields, f).toContain(f);
    }
    expect(sites.find((s) => s.operation === 'createProjection' && fieldPath(s.path) === 'horizons[0]')?.values).toEqual([12, 24, 36]);
  });

  it.each(sites.map((s) => [`${s.operation} ${s.where} ${fieldPath(s.path)}`, s] as const))('%s: a bad value is a 400 with field and allowed_values', async (_, site) => {
    const def: OperationDef = OPERATIONS[site.operation];
    const bad = typeof site.values[0] === 'number' ? 18 : 'not-a-real-value';
    const examples = REQUEST_EXAMPLES as Partial<Record<OperationName, unknown>>;
    let path = def.path.replace('{id}', 'x_missing').replace('{segment}', site.where === 'path' ? String(bad) : 'watches');
    let body: unknown;
    if (site.where === 'body') body = withValueAt(examples[site.operation], site.path, bad);
    if (site.where === 'query') path += `?${String(site.path[0])}=${bad}`;
    const r = await call(sb.url, def.method, path, { token: def.auth ? token : undefined, body });
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    const e = errorOf(r);
    expect(e.type).toBe('validation_error');
    expect(e.field).toBe(fieldPath(site.path));
    expect(e.allowed_values).toEqual(site.values);
    expect(e.message).toContain(String(site.values[0]));
  });
});
