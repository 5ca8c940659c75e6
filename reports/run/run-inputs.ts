import { buildLots, type LedgerEntry, type LedgerProblem, type Realisation } from '../../src/ledger';
import { heldHoldings, sourceKey } from '../../src/ledger/held-holdings';
import { describeLedgerProblem, holdingAsBuy, isTransactionsFile, loadLedger } from '../../src/ledger/read-ledger';
import type { DecimalMark } from '../../src/holdings/amounts';
import { loadHoldings, readTables, type LoadResult, type TableReader } from '../../src/holdings/load';
import { columnForHeader, LEDGER_VOCABULARY } from '../../src/holdings/columns';
import type { RawTable } from '../../src/holdings/formats/table';
import { printable } from '../../src/printable';
import { PortfolioLanguages } from '../../src/holdings/language';
import { InputError, type Holding, type PortfolioInput, type RowProblem } from '../../src/holdings/types';

/** One portfolio's ledger up to the as-of date, as the report's history is computed from it (issue 23). */
export interface PortfolioLedger {
  /** The rows used, dated on or before the as-of date, in ledger order: the flows come from these. */
  entries: LedgerEntry[];
  /** Every sale matched first in, first out against the lots it sold from. */
  realisations: Realisation[];
}

export interface RunInputs extends LoadResult {
  /** Every portfolio's ledger: its transactions, and its holdings-file rows as buys on their purchase dates. */
  ledgers: Map<string, PortfolioLedger>;
  /** Transactions rows dated after the as-of date (they belong to later month-ends), counted for stderr. */
  afterAsOf: number;
  /** The reporting currency: the one asked for, else the inputs' own when they all agree, else USD. */
  currency: string;
  /** Every ledger row refused (also among its portfolio's problems), said on stderr by row and field; the run then exits 3. */
  ledgerProblems: LedgerProblem[];
}

export interface InputRules {
  asOf: string;
  /** --currency: also the currency of a transactions row that names none. */
  currency?: string;
  decimalMark?: DecimalMark;
  ignoreColumns?: readonly string[];
  /** How a file's tables are read (default: each time; the demo's history months share one reading of the examples). */
  tablesOf?: TableReader;
}

/**
 * Reads a run's input files: holdings files as before, and transactions files (a table with a
 * `type` column) into a ledger. A portfolio with transactions holds what its ledger holds on the
 * as-of date (its holdings-file rows being buys, lots matched first in, first out); one with a
 * holdings file alone is read exactly as before. Refused ledger rows are the portfolio's row
 * problems, by row and field; the rest of it is still reported.
 */
export async function readRunInputs(files: readonly string[], rules: InputRules): Promise<RunInputs> {
  const read = new Map<string, RawTable[]>();
  const reader = rules.tablesOf ?? readTables;
  const kinds = await Promise.all(files.map(async (f) => ((await sortFile(f, read, reader)) === 'ledger' ? 'ledger' : 'holdings')));
  const holdingsFiles = files.filter((_, i) => kinds[i] === 'holdings');
  const ledgerFiles = files.filter((_, i) => kinds[i] === 'ledger');
  const tablesOf = async (f: string) => read.get(f) ?? reader(f);
  // One language per portfolio across its holdings and transactions files.
  const languages = new PortfolioLanguages();
  const loaded: LoadResult = holdingsFiles.length > 0 ? await loadHoldings(holdingsFiles, { ...rules, tablesOf, languages }) : { portfolios: [], unreadable: [], warnings: [] };
  const ledger = ledgerFiles.length > 0 ? await loadLedger(ledgerFiles, { ...rules, languages }) : { entries: [], problems: [], afterAsOf: 0, warnings: [] };

  const currency = rules.currency ?? agreedCurrency(loaded.portfolios, ledger.entries);
  const byName = new Map(loaded.portfolios.map((p) => [p.name, p]));
  const transacted = new Set([...ledger.entries, ...ledger.problems].map((e) => e.portfolio));
  const ledgers = new Map<string, PortfolioLedger>();
  const portfolios: PortfolioInput[] = [];
  const warnings = [...loaded.warnings, ...ledger.warnings];
  const unreadable = [...loaded.unreadable];

  for (const p of loaded.portfolios) {
    if (transacted.has(p.name)) continue;
    ledgers.set(p.name, { entries: p.holdings.map((h) => holdingAsBuy(h, currency)), realisations: [] });
    portfolios.push(p);
  }
  const ledgerProblems: LedgerProblem[] = [];
  for (const name of transacted) {
    const fromHoldings = byName.get(name);
    const holdings = new Map<string, Holding>((fromHoldings?.holdings ?? []).map((h) => [sourceKey(h.source), h]));
    const entries = [...[...holdings.values()].map((h) => holdingAsBuy(h, currency)), ...ledger.entries.filter((e) => e.portfolio === name)];
    const rows = new Map(entries.map((e) => [sourceKey(e.source), e]));
    const lots = buildLots(entries, rules.asOf);
    const problems = [...ledger.problems.filter((x) => x.portfolio === name), ...lots.problems];
    ledgerProblems.push(...problems);
    ledgers.set(name, { entries: lots.accepted, realisations: lots.realisations });
    if (lots.lots.length === 0) {
      // Everything sold (or every purchase refused): there is nothing to value, so no report.
      if (problems.length > 0 || fromHoldings?.problems.length) unreadable.push({ name, message: `portfolio "${name}" holds nothing on ${rules.asOf}: ${problems.length} ledger row${problems.length === 1 ? ' was' : 's were'} refused (${problems.slice(0, 3).map(describeLedgerProblem).join('; ')})` });
      else warnings.push(`Portfolio "${name}" holds nothing on ${rules.asOf} (everything bought has been sold or transferred out): no report is written for it.`);
      continue;
    }
    portfolios.push({
      name,
      files: [...new Set([...(fromHoldings?.files ?? []), ...ledgerFiles.filter((f) => entries.some((e) => e.source.file === f))])],
      holdings: heldHoldings(lots.lots, (s) => ({ holding: holdings.get(sourceKey(s)), entry: rows.get(sourceKey(s)) })),
      problems: [...(fromHoldings?.problems ?? []), ...problems.map(asRowProblem)],
      // The analyst's notes: which lot each sale took first in, first out where naming one would choose another.
      ...(fromHoldings?.readNotes || lots.notes.length > 0 ? { readNotes: [...(fromHoldings?.readNotes ?? []), ...lots.notes] } : {}),
    });
  }
  for (const p of portfolios) {
    const language = languages.of(p.name);
    if (language) p.language = language;
  }
  if (portfolios.length === 0) throw new InputError(`no portfolio in the input holds anything on ${rules.asOf}${unreadable.length > 0 ? `: ${unreadable.map((u) => u.message).join('; ')}` : ''}`);
  return { portfolios, unreadable, warnings, ledgers, afterAsOf: ledger.afterAsOf, currency, ledgerProblems };
}

/**
 * A holdings file or a transactions file: read as holdings (kept in `read`, so it is read once),
 * a transactions file being one with a `type` column. A file the holdings reader cannot take is a
 * transactions file if the ledger's reader recognises it; else the holdings reader's error stands.
 */
async function sortFile(file: string, read: Map<string, RawTable[]>, reader: TableReader): Promise<'holdings' | 'ledger'> {
  let tables: RawTable[];
  try {
    tables = await reader(file);
  } catch (e) {
    if (e instanceof InputError && (await isTransactionsFile(file, reader))) return 'ledger';
    throw e;
  }
  if (tables.some((t) => t.unknownHeaders.some((h) => columnForHeader(h, LEDGER_VOCABULARY) === 'type'))) return 'ledger';
  read.set(file, tables);
  return 'holdings';
}

/** What reading the inputs left out, on stderr: headers, refused ledger rows by row and field, unreadable portfolios, transactions after the as-of date. */
export function sayInputs(loaded: RunInputs, asOf: string, log: (line: string) => void): void {
  loaded.warnings.forEach(log);
  const refused = loaded.ledgerProblems;
  if (refused.length > 0) {
    log(`${refusedRows(refused.length)} (left out; the rest of each ledger is reported, and the run exits 3):`);
    // A cell's text is quoted in the reason: its control characters are shown, not sent to the terminal.
    for (const p of refused) log(printable(`  ${p.portfolio}: ${describeLedgerProblem(p)}`));
  }
  for (const u of loaded.unreadable) log(`Not written: ${u.message}. The other portfolios' reports are.`);
  if (loaded.afterAsOf > 0) log(`${loaded.afterAsOf} transaction${loaded.afterAsOf === 1 ? ' is' : 's are'} dated after ${asOf}: left out of this month-end (they belong to later ones).`);
}

/** "2 ledger rows refused": the words stderr and the run's last line use. */
export function refusedRows(n: number): string {
  return `${n} ledger row${n === 1 ? '' : 's'} refused`;
}

/** The currency every holding and transaction is in, when they agree; else USD (as for holdings files). */
function agreedCurrency(portfolios: readonly PortfolioInput[], entries: readonly LedgerEntry[]): string {
  const seen = new Set([...portfolios.flatMap((p) => p.holdings.map((h) => h.currency)), ...entries.map((e) => e.currency)].filter((c): c is string => c !== undefined));
  return seen.size === 1 ? [...seen][0]! : 'USD';
}

function asRowProblem(p: LedgerProblem): RowProblem {
  return { portfolio: p.portfolio, file: p.source.file, ...(p.source.sheet !== undefined ? { sheet: p.source.sheet } : {}), row: p.source.row, field: p.field, reason: p.reason };
}
