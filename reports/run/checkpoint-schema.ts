import { z } from 'zod';
import { ExitStrategy, Performance, Projection, Ratio, Score100 } from '../../src/wire';

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
    confidence: Ratio,
    service_score: Score100,
    momentum: z.string().nullable(),
    market_validated: z.boolean(),
    from_descriptors: z.literal(true).optional(),
  })
  .strict();

const FailedItem = z.object({ ok: z.literal(false), field: z.string(), message: z.string(), transient: z.boolean(), unknown_id: z.literal(true).optional() }).strict();

export const ItemResult = z.discriminatedUnion('ok', [ValuedItem, FailedItem]);

export const ScoreLite = z.object({ service_score: Score100, momentum: z.string(), market_validated: z.boolean() }).strict();

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

/** A MAC: HMAC-SHA-256, hex (checkpoint-mac.ts). */
const Mac = z.string().regex(/^[0-9a-f]{64}$/, 'must be a MAC (64 hex digits)');

export const JournalHeader = z.object({ version: z.number().int(), key: z.string(), generated_at: z.iso.datetime(), mac: Mac.optional() });

/**
 * A line's holdings are checked one by one (itemProblem), so one bad holding costs that holding's
 * valuation, not its chunk's: the line itself only has to have the right shape. `a` names the
 * asset each position's entry is for (the holding's own id, as the run read it).
 */
const ENTRY_KINDS = {
  v: z.object({ p: z.string(), v: byIndex(z.unknown()), a: byIndex(z.string()).optional() }).strict(),
  s: z.object({ p: z.string(), s: byIndex(z.unknown()), a: byIndex(z.string()).optional() }).strict(),
  e: z.object({ p: z.string(), e: Enrichment.nullable() }).strict(),
  c: z.object({ c: z.object({ performance: section(Performance) }).nullable() }).strict(),
};

export type JournalLine = { [K in keyof typeof ENTRY_KINDS]: z.infer<(typeof ENTRY_KINDS)[K]> }[keyof typeof ENTRY_KINDS];

/** One journal line checked against the shape of its kind (its holdings' entries are checked by itemProblem); the error says where and what. */
export function parseEntry(raw: unknown): { ok: true; entry: JournalLine } | { ok: false; why: string } {
  const kind = typeof raw === 'object' && raw !== null ? (Object.keys(ENTRY_KINDS) as (keyof typeof ENTRY_KINDS)[]).find((k) => k in raw) : undefined;
  if (!kind) return { ok: false, why: 'not a checkpoint entry' };
  const r = ENTRY_KINDS[kind].safeParse(raw);
  return r.success ? { ok: true, entry: r.data as JournalLine } : { ok: false, why: describeIssue(r.error) };
}

/** A holding's valuation: its schema, and a mid inside its own low–high range (a mid ×100 outside it is an edit, not an answer). */
const CheckedValuation = ItemResult.superRefine((v, ctx) => {
  if (!v.ok) return;
  if ((v.low !== null && v.low > v.mid) || (v.high !== null && v.mid > v.high)) {
    ctx.addIssue({ code: 'custom', path: ['mid'], message: `${v.mid} is outside its own range ${v.low ?? '…'}–${v.high ?? '…'}` });
  }
  if (v.low !== null && v.high !== null && v.low > v.high) ctx.addIssue({ code: 'custom', path: ['low'], message: 'is above high' });
});

const CheckedScore = z.union([ScoreLite, z.literal(false)]);

/**
 * One holding's entry (kind "v" or "s") at `position`: its schema and ranges, and the asset it is
 * for. `recordedId` is the line's `a` for the position; `expectedId` the run's holding there
 * (undefined: not checked). Undefined when the entry may be used; else why not.
 */
export function itemProblem(kind: 'v' | 's', position: string, item: unknown, recordedId: string | undefined, expectedId: string | undefined): { why: string } | { ok: z.infer<typeof ItemResult> | z.infer<typeof CheckedScore> } {
  const r = (kind === 'v' ? CheckedValuation : CheckedScore).safeParse(item);
  if (!r.success) return { why: describeIssue(r.error, `${kind}.${position}`) };
  if (expectedId !== undefined && recordedId !== expectedId) return { why: `${kind}.${position}: it is for asset ${quoted(recordedId)}, not this run's ${quoted(expectedId)}` };
  return { ok: r.data };
}

/** An id as a message quotes it: JSON-quoted, and cut short (an edited checkpoint could hold a megabyte "id"). */
const quoted = (id: string | undefined) => (id === undefined ? 'none' : JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id));

/** "v.12.mid: Invalid input: expected number" — where in the line, and what is wrong. */
export function describeIssue(error: z.ZodError, under?: string): string {
  const issue = error.issues[0]!;
  const path = [...(under ? [under] : []), ...issue.path].join('.');
  return `${path || 'the line'}: ${issue.message}`;
}
