import { z } from 'zod';
import * as wire from './index';
import { REQUEST_EXAMPLES } from './examples';
import { ErrorResponse } from './errors';
import { OPERATIONS, type OperationDef, type OperationName } from './operations';
import { SegmentIdSchema } from './primitives';
import { RATE_HEADERS } from './tiers';

/**
 * The service as an OpenAPI 3.1 document, generated from the wire schemas (zod's JSON Schema)
 * and the operations table, so teams in other languages (and Power Query) can integrate.
 * Committed as docs/openapi.json (`npx tsx src/wire/write-openapi.ts`) and served by the
 * sandbox at GET /v1/openapi.json. What JSON Schema cannot say (refinements such as "a maker
 * is required", a date that exists, no control characters) is in the descriptions and
 * docs/decisions.md; the service still checks it.
 */

/** Where the document lives, relative to the base URL (which ends in /v1). */
export const OPENAPI_PATH = '/openapi.json';

const SCHEMA_REF = (name: string) => `#/components/schemas/${name}`;
const ERROR_REF = { $ref: SCHEMA_REF('ErrorResponse') };

type Json = Record<string, unknown>;

/** The exported name of every schema the operations table uses, found by identity in the wire module. */
function namesOf(schemas: readonly z.ZodType[]): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const [name, value] of Object.entries(wire)) {
    if (schemas.includes(value as z.ZodType) && !names.has(value as z.ZodType)) names.set(value as z.ZodType, name);
  }
  for (const s of schemas) if (!names.has(s)) throw new Error('a schema of the operations table is not exported by src/wire');
  return names;
}

/**
 * JSON Schemas for the named zod schemas, referring to each other through components. Responses
 * too are described as what a parse accepts (io: input): their objects stay open to fields added
 * later, as the client reads them, where the output view would close them.
 */
function componentSchemas(named: Map<z.ZodType, string>): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'input', uri: SCHEMA_REF, unrepresentable: 'throw' });
  // Components are not documents: the generator's own $id and $schema would be wrong there.
  // Sorted by name: the order of a module's exports differs between loaders, the file must not.
  return Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, s]) => [id, withoutKeys(s as Json, ['$id', '$schema'])]),
  );
}

function withoutKeys(o: Json, keys: string[]): Json {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

function inlineSchema(schema: z.ZodType): Json {
  return withoutKeys(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }) as Json, ['$schema']);
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'segment' ? inlineSchema(SegmentIdSchema) : { type: 'string', minLength: 1 },
    description: name === 'segment' ? 'a segment id' : 'the id the service gave when it created the resource',
  }));
}

function queryParameters(def: OperationDef): Json[] {
  if (!def.query) return [];
  return Object.entries(def.query.shape).map(([name, schema]) => ({ name, in: 'query', required: false, schema: inlineSchema(schema as z.ZodType) }));
}

const RATE_HEADER_DOCS: Record<string, string> = {
  [RATE_HEADERS.limit]: 'requests allowed in the current minute window',
  [RATE_HEADERS.remaining]: 'requests left in the current minute window',
  [RATE_HEADERS.reset]: 'Unix epoch seconds at which the minute window resets',
  [RATE_HEADERS.dayLimit]: 'requests allowed in the current day window',
  [RATE_HEADERS.dayRemaining]: 'requests left in the current day window',
  [RATE_HEADERS.dayReset]: 'Unix epoch seconds at which the day window resets',
};

function rateHeaders(): Json {
  return Object.fromEntries(Object.keys(RATE_HEADER_DOCS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
}

const ERROR_RESPONSES: Record<string, [string, string]> = {
  '400': ['BadRequest', 'invalid parameters: `field` names the first offending one and `allowed_values` lists an enumeration'],
  '401': ['Unauthorised', 'missing, invalid, revoked or expired credentials (`action` says refresh_token or reauthenticate)'],
  '403': ['Forbidden', "the token's scope (the subscription tier) does not include this operation"],
  '404': ['NotFound', 'no such resource for this account, or no such path'],
  '413': ['PayloadTooLarge', 'the body is larger than 1 MiB'],
  '415': ['UnsupportedMediaType', 'the body is not application/json'],
  '429': ['TooManyRequests', 'a rate limit is reached (or, on /auth/token, sign-in is slowed after failed secrets): wait Retry-After seconds'],
  '500': ['InternalError', 'the service failed: retry with exponential backoff'],
};

function errorCodes(def: OperationDef): string[] {
  const codes = ['400', '401'];
  if (def.scope) codes.push('403');
  if (def.path.includes('{')) codes.push('404');
  if (def.request) codes.push('413', '415');
  if (def.auth || def.path === OPERATIONS.createToken.path) codes.push('429');
  codes.push('500');
  return codes;
}

function operation(name: OperationName, def: OperationDef, names: Map<z.ZodType, string>): Json {
  const examples = REQUEST_EXAMPLES as Partial<Record<OperationName, unknown>>;
  const responses: Json = {
    [String(def.status)]: {
      description: def.status === 201 ? 'created' : 'OK',
      ...(def.auth ? { headers: rateHeaders() } : {}),
      content: { 'application/json': { schema: { $ref: SCHEMA_REF(names.get(def.response)!) } } },
    },
  };
  for (const code of errorCodes(def)) responses[code] = { $ref: `#/components/responses/${ERROR_RESPONSES[code]![0]}` };
  const notes = [
    def.scope ? `Needs a token with the \`${def.scope}\` scope.` : def.auth ? 'Any valid token.' : 'No bearer token.',
    def.idempotent ? 'Safe to repeat after an unknown outcome.' : 'Not safe to repeat blindly after an unknown outcome.',
  ];
  return {
    operationId: name,
    summary: `${def.method} ${def.path}`,
    description: notes.join(' '),
    tags: [def.scope ?? (def.auth ? 'reference' : 'auth')],
    security: def.auth ? [{ bearerAuth: [] }] : [],
    ...(def.auth && def.scope ? { 'x-required-scope': def.scope } : {}),
    parameters: [...pathParameters(def.path), ...queryParameters(def)],
    ...(def.request
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: SCHEMA_REF(names.get(def.request)!) }, example: examples[name] } },
          },
        }
      : {}),
    responses,
  };
}

/** The whole document, as a plain object. */
export function buildOpenApi(): Json {
  const defs = Object.entries(OPERATIONS) as [OperationName, OperationDef][];
  const requests = defs.flatMap(([, d]) => (d.request ? [d.request] : []));
  const responses = [...new Set([...defs.map(([, d]) => d.response), ErrorResponse])];
  const names = namesOf([...requests, ...responses]);

  const paths: Record<string, Json> = {};
  for (const [name, def] of defs) (paths[def.path] ??= {})[def.method.toLowerCase()] = operation(name, def, names);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Luxury Asset Intelligence Service',
      version: 'v1',
      description:
        'Valuations, investment scores, projections, market signals, portfolio analytics and exit analysis for luxury assets, as the shared client and the sandbox implement them. Generated from the zod schemas in src/wire; where the published specification is silent, docs/decisions.md says what was decided.',
    },
    servers: [{ url: '{base_url}', description: 'The base URL, ending in /v1', variables: { base_url: { default: 'http://127.0.0.1:8787/v1', description: 'the local sandbox by default' } } }],
    tags: ['auth', 'valuations', 'scores', 'projections', 'signals', 'portfolio', 'exit', 'reference'].map((t) => ({ name: t })),
    paths,
    components: {
      schemas: componentSchemas(names),
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(([id, description]) => [id, { description, content: { 'application/json': { schema: ERROR_REF } } }]),
      ),
      headers: Object.fromEntries(Object.entries(RATE_HEADER_DOCS).map(([h, description]) => [h, { description, schema: { type: 'integer' } }])),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /auth/token (client credentials) or POST /auth/refresh.' },
      },
    },
  };
}

/** The document as committed: two-space JSON with a final newline. */
export function openApiJson(): string {
  return JSON.stringify(buildOpenApi(), null, 2) + '\n';
}
