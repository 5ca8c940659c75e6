/**
 * Benchmark of a firm's brand (issue 28): a 50-holding client PDF written with the example
 * brand (examples/brand: SVG logo rasterised at load, colours, disclosures, managers) and with
 * the example brand plus a firm font (DejaVu Serif in the regular roles, so every string is
 * checked against the firm's font and the house fonts behind it), against the same PDF
 * unbranded, in the same process and run, interleaved so load on the machine falls on all alike.
 * Goal: branded ≤ 1.2 × unbranded.
 *
 * ReportData comes from the deterministic generator (fixtures/report-data.ts), as in
 * bench/reports.ts, so the figures are the writer's own. Loading the brand file (reading,
 * rasterising the SVG, checking fonts) happens once per run and is reported apart.
 *
 *   npx tsx bench/brand.ts          # prints progress, then ONE JSON line last
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeReportData } from '../fixtures/report-data';
import { loadBrand, type Brand } from '../src/brand';
import type { ReportData } from '../reports/report-data';
import { writePdf } from '../reports/writers/pdf';

const ROUNDS = 9;
const HOLDINGS = 50;
const root = path.resolve(import.meta.dirname, '..');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-brand-'));
  const loadStart = performance.now();
  const example = loadBrand(path.join(root, 'examples/brand/brand.json'));
  const brandLoadMs = performance.now() - loadStart;
  const withFont: Brand = { ...example, fontRegular: fontOf('reports/fonts/DejaVuSerif.ttf') };
  const data = makeReportData({ holdings: HOLDINGS, sandbox: false, previous: true, errors: 20 });
  const variants: Record<string, ReportData> = {
    unbranded: data,
    branded: { ...data, brand: example },
    'branded-font': { ...data, brand: withFont },
  };
  const wall: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const bytes: Record<string, number> = {};
  // Warm-up: modules loaded, fonts parsed, code hot, for every variant.
  for (const [name, d] of Object.entries(variants)) await writePdf(d, path.join(dir, `warm-${name}.pdf`));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, d] of Object.entries(variants)) {
      const file = path.join(dir, `${name}-${round}.pdf`);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await writePdf(d, file);
      (wall[name] ??= []).push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      (cpu[name] ??= []).push((c.user + c.system) / 1000);
      bytes[name] = statSync(file).size;
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
  }
  rmSync(dir, { recursive: true, force: true });
  const figures = Object.fromEntries(Object.keys(variants).map((n) => [n, { wall_median_ms: +median(wall[n]!).toFixed(1), cpu_median_ms: +median(cpu[n]!).toFixed(1), bytes: bytes[n] }]));
  const ratio = (n: string) => +(median(cpu[n]!) / median(cpu.unbranded!)).toFixed(3);
  const wallRatio = (n: string) => +(median(wall[n]!) / median(wall.unbranded!)).toFixed(3);
  console.log(
    JSON.stringify({
      bench: 'brand',
      holdings: HOLDINGS,
      rounds: ROUNDS,
      brand_load_ms: +brandLoadMs.toFixed(1),
      ...figures,
      branded_cpu_ratio: ratio('branded'),
      branded_wall_ratio: wallRatio('branded'),
      branded_font_cpu_ratio: ratio('branded-font'),
      branded_font_wall_ratio: wallRatio('branded-font'),
      goal_ratio: 1.2,
    }),
  );
}

function fontOf(file: string): NonNullable<Brand['fontRegular']> {
  const full = path.join(root, file);
  return { source: file, path: full, bytes: new Uint8Array(readFileSync(full)) };
}

await main();
