import fc from 'fast-check';
import { z } from 'zod';

/**
 * Reusable fuzzing pieces (fast-check): bodies generated from a wire schema, near-valid bodies
 * (one value replaced by something hostile, one field dropped or added) and random byte
 * mutations of a valid body. Used against the sandbox (test/sandbox/fuzz.test.ts) and usable
 * against any server that takes the wire's JSON, such as the add-in host.
 */

/** The subset of JSON Schema that zod's `z.toJSONSchema` writes for the wire request schemas. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** A zod schema as the JSON Schema of what it accepts. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

export interface GenerateOptions {
  /** Arrays are kept at most this long (a 1,000-item portfolio per case would make the pass slow). */
  maxArrayLength?: number;
  /** Strings without a pattern are kept at most this long. */
  maxStringLength?: number;
}

/**
 * Values that satisfy the JSON Schema (as far as JSON Schema goes: refinements such as "a maker
 * is required" are not in it, so some generated bodies are near-valid by nature).
 */
export function arbitraryFromJsonSchema(schema: JsonSchema, opts: GenerateOptions = {}): fc.Arbitrary<unknown> {
  const maxArray = opts.maxArrayLength ?? 3;
  const maxString = opts.maxStringLength ?? 40;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => arbitraryFromJsonSchema(b, opts)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = schema.properties ?? {};
      const record = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, arbitraryFromJsonSchema(s, opts)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? maxArray, maxArray));
      return fc.array(arbitraryFromJsonSchema(schema.items ?? {}, opts), { minLength, maxLength });
    }
    case 'string':
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? maxString, maxString)) });
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1e9, Number.MIN_SAFE_INTEGER), max: Math.min(schema.maximum ?? 1e9, Number.MAX_SAFE_INTEGER) });
    case 'number': {
      const min = schema.exclusiveMinimum ?? schema.minimum ?? -1e12;
      const max = schema.exclusiveMaximum ?? schema.maximum ?? 1e12;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum !== undefined, maxExcluded: schema.exclusiveMaximum !== undefined });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return anyJson();
  }
}

/** Any JSON value, small. */
export function anyJson(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 3 });
}

/**
 * Values a careless user or an attacker sends: numbers at and past the limits of a double,
 * control characters, lone surrogates, wrong types, prototype keys, long and deep values.
 */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(1e308, -1e308, 5e-324, -0, 0, -1, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, 1e21, 0.1 + 0.2),
    fc.constantFrom('', ' ', '\u0000', '\u001b[2J', 'a\r\nb', '\u202e', '\ud800', '\u{1F600}', 'NaN', 'Infinity', '1e308', '__proto__', '../../etc/passwd', '%00', '<script>'),
    fc.constantFrom(null, true, false, [], {}, JSON.parse('{"__proto__": {"polluted": true}}') as unknown, { constructor: { prototype: { polluted: true } } }),
    fc.constantFrom('x'.repeat(10_000), Array.from({ length: 2000 }, () => 0)),
    fc.string({ unit: 'binary', maxLength: 20 }),
    anyJson(),
  );
}

type Path = (string | number)[];

/** Every path into a JSON value (the root is []). */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

/** A copy of `value` with the value at `path` replaced (or, with `remove`, deleted). */
export function replaceAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const copy: unknown = structuredClone(value);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else {
    Object.defineProperty(node, last, { value: replacement, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** One small change to a valid body: a value replaced by a hostile one, a field dropped, or an unknown field added. */
export function nearValid(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  const objectPaths = paths.filter((p) => {
    const v = p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], valid);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
  return fc.oneof(
    fc.tuple(fc.constantFrom(...paths), hostileValue()).map(([p, v]) => replaceAt(valid, p, v)),
    fc.constantFrom(...paths.filter((p) => p.length > 0)).map((p) => replaceAt(valid, p, undefined, true)),
    fc.tuple(fc.constantFrom(...objectPaths), fc.string({ maxLength: 12 }), hostileValue()).map(([p, k, v]) => replaceAt(valid, [...p, k], v)),
  );
}

/** Bytes that tend to break parsers: structure, escapes, NUL, invalid UTF-8, a BOM, an overlong encoding. */
const SPICY_BYTES = [0x00, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x0a, 0x0d, 0x80, 0xc0, 0xc1, 0xed, 0xfe, 0xff];
const SPICY_SEQUENCES = [[0xef, 0xbb, 0xbf], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x5c, 0x75, 0x64, 0x38, 0x30, 0x30]];

/** One byte-level mutation of `bytes`: flip, overwrite, insert, delete, duplicate or truncate. */
export function byteMutation(bytes: Uint8Array): fc.Arbitrary<Uint8Array> {
  const n = bytes.length;
  const at = fc.integer({ min: 0, max: Math.max(0, n - 1) });
  const insertion = fc.oneof(fc.constantFrom(...SPICY_BYTES).map((b) => [b]), fc.constantFrom(...SPICY_SEQUENCES), fc.uint8Array({ minLength: 1, maxLength: 8 }).map((a) => [...a]));
  const splice = (start: number, deleteCount: number, insert: number[] = []) => {
    const out = [...bytes];
    out.splice(start, deleteCount, ...insert);
    return Uint8Array.from(out);
  };
  return fc.oneof(
    fc.tuple(at, fc.integer({ min: 0, max: 7 })).map(([i, bit]) => splice(i, 1, [bytes[i]! ^ (1 << bit)])),
    fc.tuple(at, fc.constantFrom(...SPICY_BYTES)).map(([i, b]) => splice(i, 1, [b])),
    fc.tuple(at, insertion).map(([i, ins]) => splice(i, 0, ins)),
    fc.tuple(at, fc.integer({ min: 1, max: 16 })).map(([i, len]) => splice(i, len)),
    fc.tuple(at, fc.integer({ min: 1, max: 32 })).map(([i, len]) => splice(i, 0, [...bytes.slice(i, i + len)])),
    at.map((i) => bytes.slice(0, i)),
  );
}

/** One to `max` byte mutations applied in turn. */
export function byteMutations(bytes: Uint8Array, max = 3): fc.Arbitrary<Uint8Array> {
  let arb: fc.Arbitrary<Uint8Array> = byteMutation(bytes);
  for (let i = 1; i < max; i++) arb = fc.oneof(arb, arb.chain((b) => byteMutation(b)));
  return arb;
}

/** JSON nested `depth` deep: arrays, objects, or both in turn. */
export function deeplyNested(depth: number, kind: 'array' | 'object' | 'mixed' = 'mixed'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const obj = kind === 'object' || (kind === 'mixed' && i % 2 === 1);
    open += obj ? '{"a":' : '[';
    close = (obj ? '}' : ']') + close;
  }
  return `${open}0${close}`;
}
