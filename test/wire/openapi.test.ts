import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationDef, type OperationName } from '../../src/wire';
import { REQUEST_EXAMPLES } from '../../src/wire/examples';
import { OPENAPI_PATH, buildOpenApi, openApiJson } from '../../src/wire/openapi';
import { call, suiteSandbox } from '../sandbox/helpers';

const COMMITTED = path.join(import.meta.dirname, '../../docs/openapi.json');

interface Doc {
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string }; example: unknown }> }; responses: Record<string, { $ref?: string; content?: Record<string, { schema: { $ref: string } }> }>; security: unknown[] }>>;
  components: { schemas: Record<string, unknown> };
}
const doc = buildOpenApi() as unknown as Doc;

/** The schemas of the document, checked by an independent JSON Schema validator (ajv, draft 2020-12). */
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: doc.components });
function validatorFor(ref: string) {
  const v = ajv.getSchema(`openapi${ref}`);
  if (!v) throw new Error(`no schema at ${ref}`);
  return v;
}
function expectValid(ref: string, value: unknown, what: string) {
  const v = validatorFor(ref);
  expect(v(value), `${what} against ${ref}: ${ajv.errorsText(v.errors)}\n${JSON.stringify(value).slice(0, 500)}`).toBe(true);
}

const entries = Object.entries(OPERATIONS) as [OperationName, OperationDef][];
const opOf = (name: OperationName) => doc.paths[OPERATIONS[name].path]![OPERATIONS[name].method.toLowerCase()]!;

describe('the OpenAPI document', () => {
  it('lists every operation of the table with its request and response schemas', () => {
    const listed = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(listed.sort()).toEqual(entries.map(([n]) => n).sort());
    for (const [name, def] of entries) {
      const o = opOf(name);
      expect(o.operationId).toBe(name);
      const success = o.responses[String(def.status)]!.content!['application/json']!.schema.$ref;
      expect(doc.components.schemas[success.split('/').pop()!], `${name} response`).toBeTruthy();
      expect(o.responses['400']!.$ref).toBe('#/components/responses/BadRequest');
      expect(o.security, name).toEqual(def.auth ? [{ bearerAuth: [] }] : []);
      if (def.request) {
        const body = o.requestBody!.content['application/json']!;
        expect(doc.components.schemas[body.schema.$ref.split('/').pop()!], `${name} request`).toBeTruthy();
        // The example shown is valid by the wire schema and by the document's own schema.
        expect(def.request.safeParse(body.example).success, name).toBe(true);
        expectValid(body.schema.$ref, body.example, `${name} example`);
      } else {
        expect(o.requestBody, name).toBeUndefined();
      }
    }
  });

  it('is the committed docs/openapi.json (regenerate with `npx tsx src/wire/write-openapi.ts`)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(openApiJson());
  });

  it('is a valid OpenAPI 3.1 document by an independent validator', () => {
    const out = execFileSync('python3', ['-m', 'openapi_spec_validator', COMMITTED], { encoding: 'utf8' });
    expect(out).toMatch(/OK/);
  });

  it('refuses what the service refuses: horizons, enums and money bounds are in the schemas', () => {
    const projection = opOf('createProjection').requestBody!.content['application/json']!.schema.$ref;
    expectValid(projection, { asset_id: 'x', current_value: 1 }, 'a minimal projection');
    for (const bad of [{ horizons: [18] }, { current_value: 0 }, { current_value: 1e308 }, { scenarios: ['pessimistic'] }, { currency: 'CHF' }]) {
      expect(validatorFor(projection)({ asset_id: 'x', current_value: 1, ...bad }), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the document served by the sandbox, and the sandbox answering it', () => {
  const suite = suiteSandbox();

  it('GET /v1/openapi.json needs no token and is the generated document', async () => {
    const r = await call(suite.sb.url, 'GET', OPENAPI_PATH);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.json).toEqual(buildOpenApi());
    expect((await call(suite.sb.url, 'POST', OPENAPI_PATH, { body: {} })).status).toBe(405);
  });

  it("every operation's success answer matches the document's response schema", async () => {
    const ids: Record<string, string> = {};
    const paramsOf = (name: OperationName) => ({ id: ids[name] ?? '', segment: 'watches' });
    const flow: OperationName[] = ['createToken', 'createValuation', 'getValuation', 'batchValuations', 'createScore', 'scoreBreakdown', 'batchScores', 'createProjection', 'getProjection', 'signalsOverview', 'listAlerts', 'segmentSignals', 'createPortfolio', 'getPortfolio', 'updatePortfolio', 'portfolioPerformance', 'analyseExit', 'exitChannels', 'listSegments', 'getSegment', 'refreshToken'];
    expect([...flow].sort()).toEqual(entries.map(([n]) => n).sort());
    let refresh = '';
    for (const name of flow) {
      const def: OperationDef = OPERATIONS[name];
      const examples = REQUEST_EXAMPLES as Partial<Record<OperationName, unknown>>;
      const body = name === 'refreshToken' ? { refresh_token: refresh, grant_type: 'refresh_token' } : examples[name];
      const p = def.path.replace(/\{(\w+)\}/g, (_, k: 'id' | 'segment') => encodeURIComponent(paramsOf(name)[k]));
      const r = await call(suite.sb.url, def.method, p, { token: def.auth ? suite.token : undefined, body });
      expect(r.status, `${name}: ${JSON.stringify(r.json)}`).toBe(def.status);
      expectValid(opOf(name).responses[String(def.status)]!.content!['application/json']!.schema.$ref, r.json, name);
      const j = r.json as Record<string, Record<string, string> & { id?: string }>;
      if (name === 'createToken') refresh = (r.json as { refresh_token: string }).refresh_token;
      if (name === 'createValuation') ids.getValuation = (r.json as { id: string }).id;
      if (name === 'createProjection') ids.getProjection = j.projection!.id!;
      if (name === 'createPortfolio') ids.getPortfolio = ids.updatePortfolio = ids.portfolioPerformance = j.portfolio!.id!;
    }
    // An error answer matches the document's error schema.
    const bad = await call(suite.sb.url, 'POST', '/projections', { token: suite.token, body: { asset_id: 'SVC-WAT-ROLEX-126610LN-2020', current_value: 1, horizons: [18] } });
    expectValid('#/components/schemas/ErrorResponse', bad.json, 'a 400');
  });
});
