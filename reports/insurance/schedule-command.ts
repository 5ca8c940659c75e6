/**
 * `svc-report insurance-schedule` (issue 37): the broker's schedule per portfolio and insurer,
 * from the same inputs, client and answers as the month-end. What a month-end of the same day
 * already valued is reused from its folder (month-end-answers.ts): no second call. What it did
 * not value is valued here through the run's own code (valuate.ts), then the report's own build
 * gives the insurance review the schedule is read from: one computation, never a second.
 */
import { resolve } from 'node:path';
import { readRatesFile } from '../../src/fx';
import { requireCurrency } from '../../src/holdings/currency';
import type { PortfolioInput } from '../../src/holdings/types';
import { hasCover } from '../../src/insurance';
import { buildPortfolioReport } from '../build/portfolio-report';
import { checkReportingCurrency, inServiceCurrency, serviceCurrencyFor } from '../build/fx';
import { fixedGeneratedAt, resolveSettings, type CommonFlags } from '../config';
import { resolveManifestKey } from '../manifest-key';
import { sayBrand } from '../run/brand-lines';
import { CallWindow } from '../run/call-window';
import { connect, type Connection } from '../run/connect';
import { UsageError } from '../run/exit-codes';
import { readRunInputs, sayInputs } from '../run/run-inputs';
import type { PortfolioResults } from '../run/results';
import { valuationsToDo, valueHoldings } from '../run/valuate';
import type { PortfolioState } from '../run/checkpoint';
import { pathInside, slugify } from '../writers/safe-path';
import { monthEndAnswers } from './month-end-answers';
import { schedulesOf, type ScheduleData } from './schedule-data';
import { writeSchedulePdf } from './schedule-pdf';
import { writeScheduleXlsx } from './schedule-xlsx';

export interface ScheduleOptions extends CommonFlags {
  out: string;
  /** Only this portfolio (its name as the files give it). */
  portfolio?: string;
  /** Only this insurer's schedule (its name as the files give it). */
  insurer?: string;
  /** Proposed values are rounded up to a multiple of this (default 500). */
  round?: number;
  /** The month-end's folder whose answers are reused (default --out). */
  fromRun?: string;
  manifestKey?: string;
  concurrency?: number;
}

export const DEFAULT_ROUND = 500;

const OMITTED = { included: false as const, note: 'Omitted: the broker\'s schedule values holdings only.' };

export interface ScheduleOutcome {
  files: string[];
  /** Holdings valued by this command's own calls (0 when the month-end's answers covered all). */
  valuedNow: number;
}

export async function writeInsuranceSchedules(files: string[], opts: ScheduleOptions, io: { signal: AbortSignal; log: (line: string) => void; env?: NodeJS.ProcessEnv }): Promise<ScheduleOutcome> {
  const env = io.env ?? process.env;
  const log = io.log;
  const settings = resolveSettings(opts, env);
  sayBrand(settings.brand, log);
  const loaded = await readRunInputs(files, { asOf: settings.asOf, currency: settings.currency, decimalMark: settings.decimalMark, ignoreColumns: settings.ignoreColumns });
  sayInputs(loaded, settings.asOf, log);
  const all = loaded.portfolios;
  const chosen = opts.portfolio === undefined ? all : all.filter((p) => p.name === opts.portfolio);
  if (chosen.length === 0) throw new UsageError(`--portfolio "${opts.portfolio}" is not in the input; the portfolios are ${all.map((p) => `"${p.name}"`).join(', ')}`);
  const currency = loaded.currency;
  const fx = settings.fxRates ? await readRatesFile(settings.fxRates) : undefined;
  checkReportingCurrency(currency, fx);
  requireCurrency(all, currency, fx && ((code) => fx.covers(code)));
  const asked = serviceCurrencyFor(currency);
  const outDir = resolve(opts.out);
  const sandboxed = settings.service.sandbox || !settings.service.baseUrl;

  // The same day's month-end: its answers, as its folder's manifest vouches for them.
  const fromRun = resolve(opts.fromRun ?? opts.out);
  const answers = await monthEndAnswers(all, { dir: fromRun, asOf: settings.asOf, currency, asked, baseUrl: settings.service.baseUrl, sandbox: sandboxed, key: resolveManifestKey(opts, env) });
  if (answers.from.length > 0) log(`Reusing the valuations of the month-end of ${settings.asOf} in ${fromRun} (${answers.from.join(', ')}).`);
  else if (answers.why) log(`No month-end valuations reused: ${answers.why}.`);

  // Before any call: a portfolio without cover has no schedule, and --insurer must name an insurer the files give.
  const covered = chosen.filter((p) => p.holdings.some((h) => hasCover(h.cover)));
  if (covered.length === 0) throw new UsageError(`no portfolio${opts.portfolio === undefined ? ' in the input' : ` "${opts.portfolio}"`} has insurance columns (insured_value, insurer, policy, renewal_date, serial): there is no schedule to write`);
  for (const p of chosen) if (!covered.includes(p)) log(`${p.name}: no insurance columns in its files: no schedule.`);
  if (opts.insurer !== undefined) {
    const insurers = [...new Set(covered.flatMap((p) => p.holdings.flatMap((h) => (h.cover?.insurer ? [h.cover.insurer] : []))))].sort();
    if (!insurers.includes(opts.insurer)) throw new UsageError(`no item is insured with "${opts.insurer}" (--insurer); the insurers are ${insurers.length > 0 ? insurers.map((i) => `"${i}"`).join(', ') : 'none'}`);
  }
  // Only what goes on a schedule is valued: with --insurer, that insurer's items.
  const scheduled = covered.map((p) => onSchedule(p, answers.states.get(p.name)!, opts.insurer)).filter((x) => x.input.holdings.length > 0);

  let conn: Connection | undefined;
  const valuedNow = new Set<string>();
  let count = 0;
  try {
    const inService = inServiceCurrency(scheduled.map((x) => x.input), asked, currency, fx);
    for (const [k, p] of inService.entries()) {
      const state = scheduled[k]!.state;
      const todo = valuationsToDo(p, state);
      if (todo.length === 0) continue;
      conn ??= await connect(settings.service, { asOf: settings.asOf, log });
      const client = conn.client;
      await valueHoldings(client, p, state, { currency: asked, signal: io.signal, window: CallWindow.of(opts.concurrency ?? settings.concurrency, () => client.pacing()), afterChunk: async () => {} });
      for (const i of todo) {
        const v = state.valuations[i];
        if (v?.ok) valuedNow.add(v.asset_id ?? p.holdings[i]!.assetId);
      }
      count += todo.length;
    }
  } finally {
    await conn?.close();
  }

  const generatedAt = fixedGeneratedAt(env) ?? new Date().toISOString();
  const schedules: ScheduleData[] = [];
  for (const { input, state } of scheduled) schedules.push(...schedulesFor(input, state.valuations.map((v) => v ?? undefined), { generatedAt, currency, fx, sandboxed, settings, opts, valuedNow, log }));
  const written: string[] = [];
  const names = new Map<string, string>();
  for (const s of schedules) {
    const stem = scheduleStem(s);
    const other = names.get(stem);
    if (other !== undefined) throw new UsageError(`the schedules "${other}" and "${s.portfolio} — ${s.insurer ?? 'not insured'}" would be written to the same files (${stem}…); rename an insurer or use --insurer`);
    names.set(stem, `${s.portfolio} — ${s.insurer ?? 'not insured'}`);
  }
  for (const s of schedules) {
    const stem = scheduleStem(s);
    const xlsx = pathInside(outDir, `${stem}.xlsx`);
    const pdf = pathInside(outDir, `${stem}.pdf`);
    // Their warnings (a letter missing in the client's language, glyphs) are said once, as the PDF is finished (PdfPages).
    await writeScheduleXlsx(s, xlsx);
    await writeSchedulePdf(s, pdf);
    written.push(xlsx, pdf);
  }
  return { files: written, valuedNow: count };
}

/** "<portfolio>-insurance-<insurer>-<as_of>": every part slugged (safe-path.ts), so no name can leave --out. */
export function scheduleStem(s: Pick<ScheduleData, 'portfolio' | 'insurer' | 'as_of'>): string {
  return `${slugify(s.portfolio)}-insurance-${s.insurer === null ? 'not-insured' : `by-${slugify(s.insurer, 'insurer')}`}-${slugify(s.as_of, 'undated')}`;
}

interface BuildArgs {
  generatedAt: string;
  currency: string;
  fx: Awaited<ReturnType<typeof readRatesFile>> | undefined;
  sandboxed: boolean;
  settings: ReturnType<typeof resolveSettings>;
  opts: ScheduleOptions;
  valuedNow: ReadonlySet<string>;
  log: (line: string) => void;
}

/** The portfolio's report built as the month-end builds it (its own figures, its review), and the schedules read from its review. */
function schedulesFor(p: PortfolioInput, valuations: PortfolioResults['valuations'], a: BuildArgs): ScheduleData[] {
  const results: PortfolioResults = { valuations, scores: [], performance: OMITTED, projections: OMITTED, exits: OMITTED, problems: [] };
  const report = buildPortfolioReport(p, results, {
    asOf: a.settings.asOf,
    currency: a.currency,
    generatedAt: a.generatedAt,
    sandbox: a.sandboxed,
    preparedBy: a.settings.preparedBy,
    fx: a.fx,
    brand: a.settings.brand,
    language: a.settings.language,
    insurance: a.settings.insurance,
  });
  for (const e of report.errors) if (e.row !== null) a.log(`${p.name}: row ${e.row}, ${e.field}: ${e.message} (not on the schedule)`);
  const review = report.insurance;
  if (!review) return [];
  return schedulesOf(
    review,
    {
      portfolio: p.name,
      clientName: report.cover.client_name,
      asOf: a.settings.asOf,
      generatedAt: a.generatedAt,
      currency: a.currency,
      round: a.opts.round ?? DEFAULT_ROUND,
      sandbox: report.cover.sandbox,
      language: report.language ?? a.settings.language,
      ...(a.settings.brand ? { brand: a.settings.brand } : {}),
      reference: report.cover.report_id,
      holdings: Array.from(report.holdings),
      sourceOf: (id) => (a.valuedNow.has(id) ? 'service' : 'month-end'),
    },
    a.opts.insurer,
  );
}

/** The portfolio's holdings a schedule lists (with --insurer, that insurer's), with their answers so far, index for index. */
function onSchedule(p: PortfolioInput, state: PortfolioState, insurer: string | undefined): { input: PortfolioInput; state: PortfolioState } {
  if (insurer === undefined) return { input: p, state };
  const keep = p.holdings.flatMap((h, i) => (h.cover?.insurer === insurer ? [i] : []));
  return { input: { ...p, holdings: keep.map((i) => p.holdings[i]!) }, state: { valuations: keep.map((i) => state.valuations[i] ?? null), scores: [] } };
}
