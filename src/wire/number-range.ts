import type { z } from 'zod';

/** The numbers a field takes, as its schema says: bounds (absent where unbounded) and whether only whole numbers. */
export interface NumberRange {
  min?: number;
  max?: number;
  int: boolean;
}

/** The parts of a zod 4 schema read here (its definition and, for a number, the bounds zod computes). */
interface SchemaNode {
  _zod: { def: { type: string; shape?: Record<string, SchemaNode>; element?: SchemaNode; innerType?: SchemaNode; in?: SchemaNode; options?: SchemaNode[]; left?: SchemaNode; right?: SchemaNode } };
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
}

/** Beyond these zod's int() bounds are its own safe-integer limits, not the field's. */
const bounded = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);

function walk(node: SchemaNode | undefined, path: readonly PropertyKey[], depth = 0): NumberRange | undefined {
  if (!node?._zod || depth > 64) return undefined;
  const def = node._zod.def;
  if (path.length === 0 && def.type === 'number') return { min: bounded(node.minValue), max: bounded(node.maxValue), int: node.isInt === true };
  const [head, ...rest] = path;
  switch (def.type) {
    case 'object':
      return typeof head === 'string' ? walk(def.shape?.[head], rest, depth + 1) : undefined;
    case 'array':
      return typeof head === 'number' ? walk(def.element, rest, depth + 1) : undefined;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType, path, depth + 1);
    case 'pipe':
      return walk(def.in, path, depth + 1);
    case 'union':
      for (const option of def.options ?? []) {
        const found = walk(option, path, depth + 1);
        if (found) return found;
      }
      return undefined;
    case 'intersection':
      return walk(def.left, path, depth + 1) ?? walk(def.right, path, depth + 1);
    default:
      return undefined;
  }
}

/** The range of the number field at `path` of `schema`, if that field is a number. */
export function numberRangeAt(schema: z.ZodType, path: readonly PropertyKey[]): NumberRange | undefined {
  return walk(schema as unknown as SchemaNode, path);
}

/** "a whole number from 1 to 100000", "a number of at least 0.01": the range in the project's words. */
export function describeNumberRange(range: NumberRange): string {
  const kind = range.int ? 'a whole number' : 'a number';
  if (range.min !== undefined && range.max !== undefined) return `${kind} from ${range.min} to ${range.max}`;
  if (range.min !== undefined) return `${kind} of at least ${range.min}`;
  if (range.max !== undefined) return `${kind} of at most ${range.max}`;
  return kind;
}
