/**
 * `svc-report brand check FILE`: reads and checks a brand file as a run would (every problem
 * named, exit 2, nothing written) and writes a one-page preview: the cover of a sample client
 * report in the firm's logo, colours, fonts, title, footer and its first relationship manager.
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { Brand } from '../src/brand';
import { printable } from '../src/printable';
import type { ReportData } from './report-data';
import { logFormatOption, say } from './ops/process-log';
import { sayBrand } from './run/brand-lines';
import { EXIT } from './run/exit-codes';
import { writeAtomically } from './writers/atomic-write';
import { fixedGeneratedAt } from './config';

/** The sample report's cover: the first manager's portfolio, or a made-up one. */
function sampleCover(brand: Brand, generatedAt: string): ReportData['cover'] {
  const portfolio = [...brand.managers.keys()][0] ?? 'Sample portfolio';
  return {
    client_name: 'Sample client',
    portfolio_name: portfolio,
    portfolio_id: null,
    as_of: generatedAt.slice(0, 10),
    currency: 'USD',
    report_id: 'BRAND-PREVIEW',
    generated_at: generatedAt,
    sandbox: false,
    illustrative_rates: false,
    audience: 'client',
    portfolios: [],
  };
}

async function writePreview(brand: Brand, file: string, generatedAt: string): Promise<void> {
  const [{ PdfPages }, { drawCover }] = await Promise.all([import('./writers/pdf-layout'), import('./writers/pdf-cover')]);
  const cover = sampleCover(brand, generatedAt);
  const pages = new PdfPages(
    { title: cover.portfolio_name, subtitle: 'Brand preview', reference: cover.report_id, sandbox: false },
    { Title: `${brand.firmName} — brand preview`, Author: brand.firmName, Subject: 'Preview of a brand file' },
    { lang: 'en-GB', created: new Date(generatedAt), brand },
  );
  drawCover(pages, { cover } as ReportData);
  await writeAtomically(file, (temp) => pages.finish(createWriteStream(temp)));
}

/** --brand-root: where a brand file's logos, fonts and csv may be (issue 35); without it, in the brand file's own folder. */
export const brandRootOption = () =>
  new Option('--brand-root <dir>', "the folder a brand file's logos, fonts and managers csv must be in, absolute paths then allowed inside it (default: the brand file's own folder, relative paths only)");

export function brandCommand(): Command {
  const brand = new Command('brand').description("The firm's brand file for client documents (docs/report-job.md, \"Your firm's brand\").").exitOverride();
  brand
    .command('check')
    .description('Check a brand file (keys, logo, fonts and their licences, colours, managers csv) and write a one-page preview PDF of a client cover in it.')
    .argument('<file>', 'the brand file (JSON)')
    .option('--out <file>', 'the preview PDF to write', 'brand-preview.pdf')
    .addOption(brandRootOption())
    .addOption(logFormatOption())
    .exitOverride()
    .action(async (file: string, opts: { out: string; brandRoot?: string }) => {
      // A bad brand file throws a BrandError (an InputError): exit 2, before anything is written.
      const loaded = (await import('../src/brand')).loadBrand(file, process.cwd(), { root: opts.brandRoot });
      sayBrand(loaded, say);
      const out = resolve(opts.out);
      const generatedAt = fixedGeneratedAt(process.env) ?? new Date().toISOString();
      await writePreview(loaded, out, generatedAt);
      process.stdout.write(`${printable(out)}\n`);
      say(`Brand file ${printable(loaded.file)} is usable: ${loaded.managers.size} relationship manager${loaded.managers.size === 1 ? '' : 's'}, ${loaded.disclosures.length} disclosure paragraph${loaded.disclosures.length === 1 ? '' : 's'}; preview written.`);
      process.exitCode = EXIT.ok;
    });
  return brand;
}
