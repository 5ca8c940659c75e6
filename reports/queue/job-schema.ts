import { isAbsolute, posix, win32 } from 'node:path';
import { z } from 'zod';
import { AssetDescriptorFields, CalendarDate, CurrencySchema, SEGMENT_IDS, plainString } from '../../src/wire';
import { isCurrencyCode } from '../../src/fx/codes';
import { LEDGER_UNITS, TRANSACTION_TYPES } from '../../src/ledger/types';
import { PreviousReportContent } from '../build/previous';
import { REPORT_FORMATS } from '../report-data';
import type { PortfolioJobData } from './jobs';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../../src/i18n/languages';
import { REPLACEMENT_BASES } from '../../src/insurance/types';

/** A client documents' language (issue 36): the supported tags only. */
const Language = z.enum([...LANGUAGES, PSEUDO_LANGUAGE]);

/**
 * What a worker accepts as a job, field by field: the same rules as the CLI's input (the
 * service's descriptor fields, dates that exist, ISO 4217 codes, the report formats). A job is
 * checked after its MAC and before anything is done with it; the refusal names the field, never
 * the value (zod's messages say what was expected).
 */

const finite = z.number().finite();
const Currency = z.string().refine(isCurrencyCode, 'an ISO 4217 currency code such as USD');
/** A name or label from the holdings files: no control characters. */
const Name = (max: number) => plainString().min(1).max(max);
const Source = z.object({ file: Name(4096), sheet: Name(200).optional(), row: z.number().int().min(0) }).strict();
const Segment = AssetDescriptorFields.segment;

/**
 * A run folder inside the worker's --out: relative, no "..", no drive or UNC prefix, no control
 * characters. (That it stays inside once links are followed is checked on the disk: run-folder.ts.)
 */
export const RelativeFolder = Name(1024).refine((f) => !isAbsolute(f) && !posix.isAbsolute(f) && !win32.isAbsolute(f) && !/^[A-Za-z]:/.test(f), 'a folder relative to the worker\'s --out, not an absolute path').refine(
  (f) => !f.split(/[\\/]+/).some((part) => part === '..'),
  'a folder inside the worker\'s --out: ".." is not allowed',
);

/** A holding's or lot's cover (issue 37), as the readers keep it (src/holdings/cover.ts). */
const Cover = z
  .object({
    insured_value: finite.min(0).optional(),
    insured_currency: Currency.optional(),
    insurer: Name(200).optional(),
    policy: Name(100).optional(),
    renewal_date: CalendarDate.optional(),
    serial: Name(100).optional(),
  })
  .strict();

const Holding = z
  .object({
    portfolio: Name(500),
    source: Source,
    segment: Segment,
    assetId: Name(512),
    assetIdGiven: z.boolean().optional(),
    brand: Name(100),
    model: Name(200),
    reference: AssetDescriptorFields.reference,
    year: AssetDescriptorFields.year,
    condition: AssetDescriptorFields.condition,
    boxPapers: z.boolean().optional(),
    size: AssetDescriptorFields.size,
    quantity: z.number().int().min(1).max(100_000),
    purchasePrice: finite.min(0),
    purchaseDate: CalendarDate,
    currency: Currency.optional(),
    // Notes keep their line breaks (the holdings reader's keepLines).
    notes: z.string().max(2000).optional(),
    medium: AssetDescriptorFields.medium,
    sizeCm: AssetDescriptorFields.size_cm,
    lot: Name(200).optional(),
    cover: Cover.optional(),
    coverRefused: z.literal(true).optional(),
  })
  .strict();

const RowProblem = z
  .object({ portfolio: z.string().max(500), file: z.string().max(4096), sheet: z.string().max(200).optional(), row: z.number().int().min(0).nullable(), field: z.string().max(200), value: z.string().max(2000).optional(), reason: z.string().max(2000) })
  .strict();

const Portfolio = z
  .object({ name: Name(500), files: z.array(Name(4096)).max(10_000), holdings: z.array(Holding).max(1_000_000), problems: z.array(RowProblem), readNotes: z.array(z.string().max(2000)).optional(), language: Language.optional() })
  .strict();

const LedgerAsset = z
  .object({ segment: z.enum(SEGMENT_IDS), brand: Name(100), model: Name(200), reference: AssetDescriptorFields.reference, year: AssetDescriptorFields.year, size: AssetDescriptorFields.size, byId: z.boolean() })
  .strict();

const LedgerEntry = z
  .object({
    portfolio: Name(500),
    date: CalendarDate,
    type: z.enum(TRANSACTION_TYPES),
    assetId: Name(512).optional(),
    asset: LedgerAsset.optional(),
    quantity: finite.positive().optional(),
    // Issue 34: the unit the row states, the wine's one stock of cases and bottles, the lot it opens or takes from.
    unit: z.enum(LEDGER_UNITS).optional(),
    stock: z.object({ id: Name(512), bottlesPerUnit: z.number().int().min(1).max(1000) }).strict().optional(),
    lot: Name(200).optional(),
    amount: finite.min(0),
    currency: Currency,
    notes: z.string().max(2000).optional(),
    cover: Cover.optional(),
    coverRefused: z.literal(true).optional(),
    source: Source,
  })
  .strict();

const Realisation = z
  .object({ portfolio: Name(500), assetId: Name(512), sold: CalendarDate, opened: CalendarDate, lot: Name(200).optional(), unit: z.enum(LEDGER_UNITS).optional(), quantity: finite.positive(), cost: finite, costCurrency: Currency, proceeds: finite, proceedsCurrency: Currency, source: Source })
  .strict();

export const PortfolioJobSchema: z.ZodType<PortfolioJobData> = z
  .object({
    runKey: z.string().regex(/^[0-9a-f]{64}$/, 'the run key (64 hex digits)'),
    runId: z.string().regex(/^[0-9a-f]{32}$/, 'the run id (32 hex digits)'),
    folder: RelativeFolder,
    portfolio: Portfolio,
    portfolioSha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 (64 hex digits)'),
    expiresAt: z.iso.datetime({ offset: true }),
    asOf: CalendarDate,
    currency: Currency,
    asked: CurrencySchema,
    fxRates: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 (64 hex digits)'), source: Name(255) }).strict().optional(),
    previous: z.object({ report: PreviousReportContent.transform((r) => ({ ...r, currency: r.currency })).nullable() }).strict().optional(),
    formats: z.array(z.enum(REPORT_FORMATS)).min(1),
    preparedBy: plainString().max(200).optional(),
    brand: z.object({ firm: Name(200), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 (64 hex digits)') }).strict().optional(),
    validatedWarningPercent: z.number().min(0).max(100).optional(),
    insurance: z.object({ basis: z.enum(REPLACEMENT_BASES), tolerance: z.number().min(0).max(1) }).strict().optional(),
    allowUnknownIds: z.boolean().optional(),
    language: Language.optional(),
    generatedAt: z.iso.datetime({ offset: true }),
    sandbox: z.boolean(),
    ledger: z.object({ entries: z.array(LedgerEntry), realisations: z.array(Realisation) }).strict().optional(),
  })
  .strict();

/** The job's data checked; the refusal names the first field at fault ("portfolio.holdings: expected array …"). */
export function checkJobData(data: unknown): { ok: true; data: PortfolioJobData } | { ok: false; why: string } {
  const r = PortfolioJobSchema.safeParse(data);
  if (r.success) return { ok: true, data: r.data };
  const issue = r.error.issues[0]!;
  return { ok: false, why: `job data ${issue.path.join('.') || '(the whole job)'}: ${issue.message}` };
}
