/**
 * Bad input through the real `svc-report run` (its own process, against the sandbox in its own
 * process), timed, with peak RSS from GNU time:
 *
 *   - a csv of 100,000 bad rows (3 MB; plus 5 good ones, so reports are written and the run
 *     ends with exit 3): goal under 10 s and under 500 MB;
 *   - an xlsx that unpacks past the limit (a real sheet of 320,000 rows: a few MB packed,
 *     ~175 MB unpacked): goal refused (exit 2) in under 2 s;
 *   - baselines measured in the same run: `svc-report --version` (start-up alone) and a good
 *     100-row csv.
 *
 *   npx tsx bench/bad-input.ts [--bad-rows 100000] [--formats xlsx,csv,json,pdf]
 *
 * Prints one JSON line last.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { INPUT_LIMITS } from '../src/holdings/limits';
import { spawnSandbox } from './support/sandbox-process';
import { round } from './support/request-log';
import { holdingsCsv, runReportCommand, type ReportRun } from './support/report-run';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const BAD_ROWS = Number(arg('--bad-rows', '100000'));
const FORMATS = arg('--formats', 'xlsx,csv,json,pdf');
const work = mkdtempSync(join(tmpdir(), 'bench-bad-input-'));

/** `good` valued rows, then `bad` rows whose price is not a number (one problem each): 37 bytes a row. */
function badCsv(bad: number, good: number): string {
  const goodRows = ['watches,Rolex,Submariner Date,13200,2022-03-14', 'watches,Omega,Speedmaster Moonwatch Professional,6900,2021-05-02', 'bags,Hermès,Kelly 28 Sellier Epsom,17800,2021-09-09'];
  return ['segment,brand,model,purchase_price,purchase_date', ...Array.from({ length: good }, (_, i) => goodRows[i % goodRows.length]!), ...Array.from({ length: bad }, () => 'watches,Rolex,Daytona,n/a,2020-01-01')].join('\n') + '\n';
}

/** A workbook whose one sheet is a plain holdings table of `rows` rows, as Excel writes it (inline strings). */
async function bigWorkbook(rows: number): Promise<{ content: Buffer; unpackedBytes: number }> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>');
  zip.file('xl/workbook.xml', '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Holdings" sheetId="1" r:id="rId1"/></sheets></workbook>');
  zip.file('xl/_rels/workbook.xml.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>');
  const cell = (ref: string, v: string | number) => (typeof v === 'number' ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`);
  const row = (n: number, values: (string | number)[]) => `<row r="${n}">${values.map((v, i) => cell(`${String.fromCharCode(65 + i)}${n}`, v)).join('')}</row>`;
  const parts = ['<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
  parts.push(row(1, ['segment', 'brand', 'model', 'reference', 'year', 'condition', 'quantity', 'purchase_price', 'purchase_date', 'currency', 'notes']));
  for (let n = 2; n <= rows + 1; n++) {
    parts.push(row(n, ['watches', 'Rolex', 'Submariner Date', '126610LN', 2015 + (n % 9), 'very_good', 1, 9000 + (n % 7919), `20${16 + (n % 8)}-0${1 + (n % 9)}-1${n % 10}`, 'USD', `lot ${n - 1}`]));
  }
  parts.push('</sheetData></worksheet>');
  const sheet = parts.join('');
  zip.file('xl/worksheets/sheet1.xml', sheet);
  return { content: await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } }), unpackedBytes: Buffer.byteLength(sheet) };
}

const figures = (r: ReportRun) => ({ exit_code: r.exit_code, seconds: round(r.seconds, 2), peak_rss_mb: r.peak_rss_mb });

const clientSecret = `bench-${randomUUID()}`; // a throwaway account on a local sandbox
const accountsFile = join(work, 'accounts.json');
writeFileSync(accountsFile, JSON.stringify([{ client_id: 'bench', client_secret: clientSecret, tier: 'enterprise', per_minute: 10_000_000, per_day: 1_000_000_000 }]));
const sandbox = await spawnSandbox(['--accounts', accountsFile]);
const env = { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: 'bench', SVC_CLIENT_SECRET: clientSecret, SVC_SANDBOX: '1' };

try {
  const run = (name: string, input: string) => runReportCommand(['run', input, '--out', join(work, `${name}-out`), '--formats', FORMATS], env);

  const startup = await runReportCommand(['--version'], {});
  process.stderr.write(`start-up (--version): ${startup.seconds.toFixed(2)} s\n`);

  const goodFile = join(work, 'good-100.csv');
  writeFileSync(goodFile, holdingsCsv(1, 100));
  const good = await run('good', goodFile);
  process.stderr.write(`good 100 rows: ${JSON.stringify(figures(good))}\n`);

  const badFile = join(work, 'bad-rows.csv');
  writeFileSync(badFile, badCsv(BAD_ROWS, 5));
  const bad = await run('bad', badFile);
  process.stderr.write(`${BAD_ROWS} bad rows: ${JSON.stringify(figures(bad))}\n`);

  const bombFile = join(work, 'unpacks-big.xlsx');
  const workbook = await bigWorkbook(320_000);
  writeFileSync(bombFile, workbook.content);
  const bomb = await run('bomb', bombFile);
  process.stderr.write(`xlsx past the unpacked limit: ${JSON.stringify(figures(bomb))}\n${bomb.stderr.split('\n').find((l) => l.includes('unpacks')) ?? ''}\n`);

  console.log(
    JSON.stringify({
      bench: 'bad-input',
      formats: FORMATS,
      limits: INPUT_LIMITS,
      baseline_startup: figures(startup),
      baseline_good_100_rows: figures(good),
      bad_rows: {
        rows: BAD_ROWS,
        good_rows: 5,
        file_mb: round(statSync(badFile).size / 1e6, 1),
        ...figures(bad),
        ratio_seconds_vs_good_100: round(bad.seconds / good.seconds, 2),
        ratio_rss_vs_good_100: bad.peak_rss_mb && good.peak_rss_mb ? round(bad.peak_rss_mb / good.peak_rss_mb, 2) : null,
        goal_met: bad.exit_code === 3 && bad.seconds < 10 && (bad.peak_rss_mb ?? Infinity) < 500,
      },
      xlsx_past_limit: {
        file_mb: round(statSync(bombFile).size / 1e6, 1),
        unpacked_mb: round(workbook.unpackedBytes / 1e6, 1),
        ...figures(bomb),
        seconds_over_startup: round(bomb.seconds - startup.seconds, 2),
        goal_met: bomb.exit_code === 2 && bomb.seconds < 2,
      },
      load_average_1m: round(loadavg()[0]!, 2),
    }),
  );
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
