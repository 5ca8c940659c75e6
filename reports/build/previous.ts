import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../src/holdings/types';

/** What month-on-month needs from a previous run's JSON report; anything else in it is ignored. */
const Rest = {
  /** Absent before schema 1.1: such a report is taken to be in the current run's currency. */
  currency: z.string().optional(),
  summary: z.object({
    current_value: z.number(),
    // Schema 1.1: the chain the time-weighted return continues.
    time_weighted_return_percent: z.number().nullable().optional(),
    twr_from: z.string().nullable().optional(),
  }),
  holdings: z.array(z.object({ asset_id: z.string(), current_value: z.number() })),
};
/** The JSON writer's document (reports/schema/portfolio-report.schema.json) as read here; `history import` extends it. */
export const PreviousReportDocument = z.object({ portfolio: z.object({ name: z.string() }), as_of: z.string(), ...Rest });
/** …read as { name, as_of, summary, holdings }. */
const PreviousReport = PreviousReportDocument.transform((d) => ({ name: d.portfolio.name, as_of: d.as_of, currency: d.currency, summary: d.summary, holdings: d.holdings }));
export type PreviousReport = z.infer<typeof PreviousReport>;
/** A previous report as read (PreviousReport's output), checked again where it crosses a boundary (a queue job carries it). */
export const PreviousReportContent = z.object({ name: z.string(), as_of: z.string(), ...Rest }).strict();

export interface PreviousRun {
  /** Previous reports by portfolio name. */
  byPortfolio: Map<string, PreviousReport>;
}

/** Reads every JSON report in a previous run's folder (other JSON files are skipped). */
export async function readPreviousRun(dir: string): Promise<PreviousRun> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new InputError(`cannot read the previous run's folder ${dir} (--previous): it does not exist or is not readable`);
  }
  const byPortfolio = new Map<string, PreviousReport>();
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    let doc: unknown;
    try {
      doc = JSON.parse(await readFile(join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    const parsed = PreviousReport.safeParse(doc);
    if (parsed.success) byPortfolio.set(parsed.data.name, parsed.data);
  }
  return { byPortfolio };
}
