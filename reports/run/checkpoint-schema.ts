import { z } from 'zod';
import { ExitStrategy, Performance, Projection } from '../../src/wire';

/**
 * What a checkpoint line may hold. A checkpoint is a file on disk that anyone could have
 * edited: every line is checked before its values reach a report (a tampered "NaN" or a
 * string where a number belongs would otherwise surface as an unexpected error in a writer).
 */

const finite = z.number().finite();

const ValuedItem = z
  .object({
    ok: z.literal(true),
    asset_id: z.string().optional(),
    low: finite.nullable(),
    mid: finite,
    high: finite.nullable(),
    currency: z.string(),
    confidence: finite,
    service_score: finite,
    momentum: z.string().nullable(),
    market_validated: z.boolean(),
    from_descriptors: z.literal(true).optional(),
  })
  .strict();

const FailedItem = z.object({ ok: z.literal(false), field: z.string(), message: z.string(), transient: z.boolean(), unknown_id: z.literal(true).optional() }).strict();

export const ItemResult = z.discriminatedUnion('ok', [ValuedItem, FailedItem]);

export const ScoreLite = z.object({ service_score: finite, momentum: z.string(), market_validated: z.boolean() }).strict();

/** Section<T> of report-data.ts. */
export const section = <T extends z.ZodType>(data: T) =>
  z.union([z.object({ included: z.literal(true), data, note: z.string().optional() }), z.object({ included: z.literal(false), note: z.string(), failed: z.literal(true).optional() })]);

export const Enrichment = z.object({
  performance: section(Performance),
  projections: section(z.array(z.object({ index: z.number().int().min(0), projection: Projection }))),
  exits: section(z.array(z.object({ index: z.number().int().min(0), exit: ExitStrategy }))),
  problems: z.array(z.string()),
});

/** Holding positions as journal keys: "0", "17", … */
const byIndex = <T extends z.ZodType>(item: T) => z.record(z.string().regex(/^(0|[1-9]\d{0,8})$/, 'must be a holding position'), item);

export const JournalHeader = z.object({ version: z.number().int(), key: z.string(), generated_at: z.iso.datetime() });

const ENTRY_KINDS = {
  v: z.object({ p: z.string(), v: byIndex(ItemResult) }).strict(),
  s: z.object({ p: z.string(), s: byIndex(z.union([ScoreLite, z.literal(false)])) }).strict(),
  e: z.object({ p: z.string(), e: Enrichment.nullable() }).strict(),
  c: z.object({ c: z.object({ performance: section(Performance) }).nullable() }).strict(),
};

export type JournalEntry = { [K in keyof typeof ENTRY_KINDS]: z.infer<(typeof ENTRY_KINDS)[K]> }[keyof typeof ENTRY_KINDS];

/** One journal line checked against the schema of its kind; the error says where and what. */
export function parseEntry(raw: unknown): { ok: true; entry: JournalEntry } | { ok: false; why: string } {
  const kind = typeof raw === 'object' && raw !== null ? (Object.keys(ENTRY_KINDS) as (keyof typeof ENTRY_KINDS)[]).find((k) => k in raw) : undefined;
  if (!kind) return { ok: false, why: 'not a checkpoint entry' };
  const r = ENTRY_KINDS[kind].safeParse(raw);
  return r.success ? { ok: true, entry: r.data as JournalEntry } : { ok: false, why: describeIssue(r.error) };
}

/** "v.12.mid: Invalid input: expected number" — where in the line, and what is wrong. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'the line'}: ${issue.message}`;
}
