import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { readCsv } from './formats/csv';
import { readJson } from './formats/json';
import { readXlsx } from './formats/xlsx';
import type { RawTable } from './formats/table';
import { toHolding, type HoldingRules } from './holding';
import { InputError, type PortfolioInput } from './types';
import { cellText } from './cells';

export interface LoadResult {
  portfolios: PortfolioInput[];
  /** Headers no column matched, per file: shown as a warning so a typo does not go unnoticed. */
  warnings: string[];
}

/**
 * Reads holdings files into portfolios. One file is one portfolio named after the file,
 * unless a `portfolio` column (or a workbook's sheets, or a JSON `portfolios` map) splits it.
 * Bad rows become problems of their portfolio; an unreadable file throws InputError.
 */
export async function loadHoldings(files: readonly string[], rules: HoldingRules): Promise<LoadResult> {
  if (files.length === 0) throw new InputError('give at least one holdings file (.csv, .xlsx or .json)');
  const byName = new Map<string, PortfolioInput>();
  const warnings: string[] = [];
  for (const file of files) {
    for (const table of await readTables(file)) {
      if (!table.recognised) {
        throw new InputError(`${file}${table.sheet ? ` (sheet ${table.sheet})` : ''} has no segment or asset_id column; columns are described in docs/report-job.md`);
      }
      if (table.unknownHeaders.length > 0) warnings.push(`${file}: ignored unknown column(s) ${table.unknownHeaders.join(', ')}`);
      for (const record of table.records) {
        const name = cellText(record.values.portfolio) ?? table.portfolio;
        let portfolio = byName.get(name);
        if (!portfolio) byName.set(name, (portfolio = { name, files: [], holdings: [], problems: [] }));
        if (!portfolio.files.includes(file)) portfolio.files.push(file);
        const result = toHolding(record, name, rules);
        if ('holding' in result) portfolio.holdings.push(result.holding);
        else portfolio.problems.push(...result.problems);
      }
    }
  }
  const portfolios = [...byName.values()];
  if (portfolios.length === 0) throw new InputError(`no holdings found in ${files.join(', ')}`);
  return { portfolios, warnings };
}

async function readTables(file: string): Promise<RawTable[]> {
  const ext = extname(file).toLowerCase();
  const portfolio = basename(file, extname(file));
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message;
    throw new InputError(`cannot read holdings file ${file}: ${why}`);
  }
  if (ext === '.csv' || ext === '.txt' || ext === '.tsv') return readCsv(content.toString('utf8'), file, portfolio);
  if (ext === '.json') return readJson(content.toString('utf8'), file, portfolio);
  if (ext === '.xlsx' || ext === '.xlsm') return readXlsx(content, file, portfolio);
  throw new InputError(`${file}: unsupported file type '${ext || '(none)'}'; use .csv, .xlsx or .json`);
}
