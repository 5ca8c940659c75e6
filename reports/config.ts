import { DEFAULT_INSURANCE_OPTIONS, REPLACEMENT_BASES, type InsuranceSettings, type ReplacementBasis } from '../src/insurance/types';
import { existsSync, readFileSync } from 'node:fs';
import { hasUserInfo } from '../src/redact-url';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TIER_NAMES, isRealDate, type TierName } from '../src/wire';
import { isCurrencyCode } from '../src/fx/codes';
import { CSV_HEADERS, DEFAULT_CSV_HEADERS, DEFAULT_FORMATS, REPORT_FORMATS, type CsvHeaders, type ReportFormat } from './report-data';
import { InputError } from '../src/holdings/types';
import type { DecimalMark } from '../src/holdings/amounts';
import { isoDateHint } from '../src/holdings/cells';
import { DEFAULT_VALIDATED_WARNING_PERCENT } from './build/validation';
import { isDatabaseOff, parseTarget } from '../src/db/paths';
import { DEFAULT_DB_WAIT_SECONDS, resolveDatabaseTarget, type DatabaseTargetSource } from './history/database-target';
import { loadBrand, type Brand } from '../src/brand';
import { DEFAULT_LANGUAGE, type Language } from '../src/i18n/languages';

/** Most calls in flight --concurrency / `concurrency` may ask for. */
export const MAX_CONCURRENCY = 256;

/** The config file (`--config FILE`, or svc-report.config.json in the working folder). Documented in docs/report-job.md. */
const ConfigFile = z
  .object({
    base_url: z.url().optional(),
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
    tier: z.enum(TIER_NAMES).optional(),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as USD or CHF').optional(),
    /** Exchange-rates file (ECB eurofxref-hist.csv or date,currency,rate_per_eur), relative to the working folder. */
    fx_rates: z.string().min(1).optional(),
    formats: z.array(z.enum(REPORT_FORMATS)).min(1).optional(),
    prepared_by: z.string().max(200).optional(),
    /** The base URL is a sandbox: send x-sandbox-as-of and mark reports as sandbox data. */
    sandbox: z.boolean().optional(),
    /** The holdings files write 1.234,56 (true) or 1,234.56 (false); absent: each column's own, ambiguous amounts refused. */
    decimal_comma: z.boolean().optional(),
    /** Calls in flight at most; absent: sized from the service's pace and round trip. */
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
    /** Holdings-file headers to leave out on purpose though they resemble a column (as --ignore-column). */
    ignore_columns: z.array(z.string().trim().min(1, 'must name a header, e.g. "Quantiy"')).optional(),
    /** Value a holding whose asset id the service did not issue from the details its row gives, instead of refusing the row (as --allow-unknown-ids). */
    allow_unknown_ids: z.boolean().optional(),
    /** Redis shared by every process of the account (docs/scale-out.md); SVC_REDIS_URL and --redis win. */
    /** Under this share of value market validated (percent), the summary page names the holdings not validated; --validated-warning wins. */
    validated_warning: z.number().min(0).max(100).optional(),
    /** The insurance review's replacement value (issue 37): the valuation's high (default) or mid estimate; --replacement wins. */
    replacement: z.enum(REPLACEMENT_BASES).optional(),
    /** Percent below the replacement value an insured value may be before it is under-insured (default 10); --insurance-tolerance wins. */
    insurance_tolerance: z.number().min(0).max(100).optional(),
    redis_url: z.string().regex(/^rediss?:\/\/[^/]/, 'must be a Redis URL such as redis://10.0.0.5:6379').optional(),
    /** The history database: a folder (embedded), a postgres:// URL, or "off"; --db and SVC_DB_URL win. */
    db: z.string().trim().min(1, 'must be a folder, a postgres:// URL or "off"').optional(),
    /** A file holding the firm's manifest key (manifest-key.ts), relative to the working folder; --manifest-key and SVC_MANIFEST_KEY win. */
    manifest_key_file: z.string().min(1).optional(),
    /** The firm's brand file (docs/report-job.md, "Your firm's brand"), relative to the working folder; --brand wins. */
    brand: z.string().trim().min(1, 'must name a brand file, e.g. "brand/brand.json"').optional(),
    /** The CSV's header row: "localised" (the report's language) or "english" (machine-stable keys); --csv-headers wins. */
    csv_headers: z.enum(CSV_HEADERS).optional(),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFile>;

export const DEFAULT_CONFIG_FILE = 'svc-report.config.json';

/** Options every service-using command takes (after commander parsed them). */
export interface CommonFlags {
  config?: string;
  formats?: string;
  currency?: string;
  tier?: string;
  minuteMs?: number;
  asOf?: string;
  sandboxLog?: string;
  /** --decimal-comma (true) / --no-decimal-comma (false). */
  decimalComma?: boolean;
  /** --fx-rates FILE. */
  fxRates?: string;
  /** --redis URL: share the account's rate budget with other processes (docs/scale-out.md). */
  redis?: string;
  /** --ignore-column NAME, repeated: holdings headers to leave out on purpose. */
  ignoreColumn?: string[];
  /** --validated-warning PERCENT. */
  validatedWarning?: number;
  /** --replacement mid|high (issue 37). */
  replacement?: ReplacementBasis;
  /** --insurance-tolerance PERCENT (issue 37). */
  insuranceTolerance?: number;
  /** --db FOLDER|postgres://…|off: the history database. */
  db?: string;
  /** --db-wait SECONDS: how long to wait for another process holding an embedded database (default 300). */
  dbWait?: number;
  /** --allow-unknown-ids. */
  allowUnknownIds?: boolean;
  /** --brand FILE: the firm's brand file. */
  brand?: string;
  /** --brand-root DIR: the folder the brand's files must be in (absolute paths allowed inside it); default the brand file's folder. */
  brandRoot?: string;
  /** --language TAG (parsed by the CLI): the client documents' language for portfolios without one, and the consolidated report's. */
  language?: Language;
  /** --csv-headers localised|english (commander checks the choice). */
  csvHeaders?: CsvHeaders;
}

export interface ServiceSettings {
  /** Undefined: start the embedded sandbox. */
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  tier?: TierName;
  /** Reports are marked as sandbox data and x-sandbox-as-of is sent. */
  sandbox: boolean;
  minuteMs?: number;
  /** Embedded sandbox only: its JSONL request log. */
  sandboxLog?: string;
  /** Redis shared by every process of the account (--redis, SVC_REDIS_URL, redis_url); undefined: this process alone. */
  redisUrl?: string;
}

export interface JobSettings {
  service: ServiceSettings;
  formats: ReportFormat[];
  /** Undefined: the holdings' own currency when they agree, else USD. Any ISO 4217 code (others need fxRates). */
  currency?: string;
  /** Exchange-rates file, absolute path; undefined: no conversion. */
  fxRates?: string;
  asOf: string;
  preparedBy?: string;
  /** The holdings files' decimal mark when declared (flag or config); undefined: detected per column. */
  decimalMark?: DecimalMark;
  /** Calls in flight at most; undefined: sized from the service's pace and round trip. */
  concurrency?: number;
  /** Holdings headers to leave out on purpose: the flags' and the config file's together. */
  ignoreColumns: string[];
  /** Under this share of value market validated (percent), the summary page names the holdings not validated. */
  validatedWarningPercent: number;
  /** The insurance review's replacement basis and tolerance (a fraction: 0.1 is 10 %). */
  insurance: InsuranceSettings;
  /** The history database (a folder or a postgres:// URL), where it came from; undefined: "off", no history recorded. */
  db?: { target: string; from: DatabaseTargetSource; waitMs?: number };
  /** A holding whose asset id the service did not issue is valued from its descriptors (noted for the analyst), not refused. */
  allowUnknownIds: boolean;
  /** The firm's brand (--brand, or `brand` in the config), read and checked; undefined: the house look. */
  brand?: Brand;
  /** --language: portfolios without a language column's, and the consolidated report's; default en. */
  language: Language;
  /** The CSV's header row: --csv-headers, else `csv_headers` in the config, else localised. */
  csvHeaders: CsvHeaders;
}

/** Settings from flags over environment over config file over defaults. */
export function resolveSettings(flags: CommonFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), today = new Date()): JobSettings {
  const file = readConfigFile(flags.config, cwd);
  const baseUrl = env.SVC_BASE_URL?.trim() || file.base_url;
  refuseCredentialsInUrl(baseUrl, env.SVC_BASE_URL?.trim() ? 'SVC_BASE_URL' : 'base_url in the config file');
  const tier = flags.tier ?? file.tier;
  if (tier !== undefined && !(TIER_NAMES as readonly string[]).includes(tier)) {
    throw new InputError(`--tier must be one of ${TIER_NAMES.join(', ')} (got "${tier}")`);
  }
  const currency = flags.currency?.toUpperCase() ?? file.currency;
  if (currency !== undefined && !isCurrencyCode(currency)) {
    throw new InputError(`--currency must be an ISO 4217 code such as USD, EUR, GBP, CHF or HKD (got "${flags.currency ?? currency}")`);
  }
  const asOf = flags.asOf ?? today.toISOString().slice(0, 10);
  if (!isRealDate(asOf)) {
    const hint = isoDateHint(asOf);
    throw new InputError(`--as-of must be a date that exists, as YYYY-MM-DD (got "${asOf}")${hint ? `: ${hint}` : ''}`);
  }
  if (asOf > today.toISOString().slice(0, 10)) throw new InputError(`--as-of ${asOf} is in the future; give today or an earlier day`);
  const envSandbox = env.SVC_SANDBOX === undefined ? undefined : ['1', 'true', 'yes'].includes(env.SVC_SANDBOX.toLowerCase());
  return {
    service: {
      baseUrl,
      clientId: env.SVC_CLIENT_ID || file.client_id,
      clientSecret: env.SVC_CLIENT_SECRET || file.client_secret,
      tier: tier as TierName | undefined,
      sandbox: baseUrl === undefined || (envSandbox ?? file.sandbox ?? false),
      minuteMs: flags.minuteMs,
      sandboxLog: flags.sandboxLog,
      redisUrl: redisUrl(flags.redis ?? (env.SVC_REDIS_URL?.trim() || undefined), file.redis_url),
    },
    formats: parseFormats(flags.formats) ?? file.formats ?? [...DEFAULT_FORMATS],
    currency,
    fxRates: flags.fxRates ?? file.fx_rates ? resolve(cwd, (flags.fxRates ?? file.fx_rates)!) : undefined,
    asOf,
    preparedBy: file.prepared_by,
    decimalMark: decimalMark(flags.decimalComma ?? file.decimal_comma),
    concurrency: file.concurrency,
    // Both count: the config names a firm's standing extra columns, the flag this run's.
    ignoreColumns: [...new Set([...(file.ignore_columns ?? []), ...(flags.ignoreColumn ?? [])])],
    validatedWarningPercent: flags.validatedWarning ?? file.validated_warning ?? DEFAULT_VALIDATED_WARNING_PERCENT,
    insurance: {
      basis: flags.replacement ?? file.replacement ?? DEFAULT_INSURANCE_OPTIONS.basis,
      tolerance: (flags.insuranceTolerance ?? file.insurance_tolerance ?? DEFAULT_INSURANCE_OPTIONS.tolerance * 100) / 100,
    },
    db: historyDatabase(flags.db, env, file.db, cwd, flags.dbWait),
    allowUnknownIds: flags.allowUnknownIds ?? file.allow_unknown_ids ?? false,
    brand: resolveBrand(flags.brand, file.brand, cwd, flags.brandRoot),
    language: flags.language ?? DEFAULT_LANGUAGE,
    csvHeaders: flags.csvHeaders ?? file.csv_headers ?? DEFAULT_CSV_HEADERS,
  };
}

const loadedBrands = new Map<string, Brand>();

/**
 * The brand file --brand names, else the config's `brand` (both relative to the working
 * folder), read once per process: a run checks it before writing anything, then uses it.
 */
export function resolveBrand(flag: string | undefined, fromFile: string | undefined, cwd = process.cwd(), root?: string): Brand | undefined {
  const given = flag ?? fromFile;
  if (given === undefined) return undefined;
  const file = resolve(cwd, given);
  const key = `${file}\0${root === undefined ? '' : resolve(cwd, root)}`;
  let brand = loadedBrands.get(key);
  if (!brand) loadedBrands.set(key, (brand = loadBrand(file, cwd, { root })));
  return brand;
}

/** The run's brand, checked before the output folder is touched: a bad brand file writes nothing. */
export function checkBrand(flags: Pick<CommonFlags, 'brand' | 'brandRoot' | 'config'>, cwd = process.cwd()): Brand | undefined {
  return resolveBrand(flags.brand, readConfigFile(flags.config, cwd).brand, cwd, flags.brandRoot);
}

/**
 * The history database (issue 23): --db over SVC_DB_URL over the config's `db` over the embedded
 * default under the user's data folder. "off" records nothing (periods then rest on --previous).
 * A folder is taken relative to the working folder.
 */
export function historyDatabase(flag: string | undefined, env: NodeJS.ProcessEnv, fromFile: string | undefined, cwd = process.cwd(), waitSeconds = DEFAULT_DB_WAIT_SECONDS): JobSettings['db'] {
  const { target, source } = resolveDatabaseTarget({ db: flag }, env, { db: fromFile });
  if (isDatabaseOff(target)) return undefined;
  return { target: parseTarget(target).kind === 'postgres' ? target : resolve(cwd, target), from: source, waitMs: waitSeconds * 1000 };
}

function redisUrl(given: string | undefined, fromFile: string | undefined): string | undefined {
  if (given !== undefined && !/^rediss?:\/\/[^/]/.test(given)) throw new InputError('--redis / SVC_REDIS_URL must be a Redis URL such as redis://10.0.0.5:6379 (rediss:// for TLS)');
  return given ?? fromFile;
}

const decimalMark = (comma: boolean | undefined): DecimalMark | undefined => (comma === undefined ? undefined : comma ? ',' : '.');

/**
 * A user name or password in the service address would be printed wherever the address is
 * (messages, logs) and sent on every request: it is refused at start-up, without echoing it.
 * The service's credentials are the client id and secret.
 */
function refuseCredentialsInUrl(url: string | undefined, name: string): void {
  if (url === undefined) return;
  // Either reading of user info counts (src/redact-url.ts): a password with / @ # must not pass as a host.
  if (hasUserInfo(url)) {
    throw new InputError(
      `${name} contains a user name or password (https://user:…@host); it is not printed here. Remove it from the address and give the service's credentials as SVC_CLIENT_ID and SVC_CLIENT_SECRET`,
    );
  }
  try {
    new URL(url);
  } catch {
    throw new InputError(`${name} is not a URL; give the service address including /v1, e.g. https://api.example.com/v1`);
  }
}

export function parseFormats(text: string | undefined): ReportFormat[] | undefined {
  if (text === undefined) return undefined;
  const formats = text.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean);
  const unknown = formats.filter((f) => !(REPORT_FORMATS as readonly string[]).includes(f));
  if (formats.length === 0 || unknown.length > 0) {
    throw new InputError(`--formats takes a comma-separated list of ${REPORT_FORMATS.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return [...new Set(formats)] as ReportFormat[];
}

/** The config file's settings (--config FILE, else ./svc-report.config.json when present, else none). */
export function readConfigFile(explicit: string | undefined, cwd: string): ConfigFile {
  const path = explicit ? resolve(cwd, explicit) : resolve(cwd, DEFAULT_CONFIG_FILE);
  if (!explicit && !existsSync(path)) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new InputError(`cannot read the config file ${path}: ${why}`);
  }
  const parsed = ConfigFile.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`config file ${path}: ${issue.path.join('.') || 'top level'}: ${issue.message}`);
  }
  return parsed.data;
}

/** SOURCE_DATE_EPOCH (the reproducible-builds convention) fixes a report's generated_at. */
export function fixedGeneratedAt(env: NodeJS.ProcessEnv): string | undefined {
  const s = env.SOURCE_DATE_EPOCH;
  return s && /^\d+$/.test(s) ? new Date(Number(s) * 1000).toISOString() : undefined;
}
