/**
 * Benchmark of the client PDF in other languages (issue 36): a 50-holding client PDF written in
 * `de`, `ja` and `ar` against the same PDF in `en`, in the same process and run, interleaved so
 * load on the machine falls on all alike. Goal for `de`: ≤ 1.3× the CPU time and ≤ 1.5× the size
 * of `en`; `ja` (the Noto CJK font parsed and subset, text broken by words and kinsoku) and `ar`
 * (shaped, laid out by the bidirectional algorithm, pages mirrored) are reported, not held to it.
 *
 * ReportData comes from the deterministic generator (fixtures/report-data.ts), as in
 * bench/brand.ts: the same holdings in every language, so the figures are the writer's own.
 * CPU time is the measure (wall time moves with the machine's load); the load average is printed.
 *
 *   npx tsx bench/i18n-pdf.ts          # prints progress, then ONE JSON line last
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeReportData } from '../fixtures/report-data';
import type { Language } from '../src/i18n';
import { writePdf } from '../reports/writers/pdf';

const ROUNDS = 7;
const HOLDINGS = 50;
const LANGUAGES: Language[] = ['en', 'de', 'ja', 'ar'];
const GOAL = { de_cpu_ratio: 1.3, de_size_ratio: 1.5 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-i18n-pdf-'));
  const loadBefore = os.loadavg()[0]!;
  const data = makeReportData({ holdings: HOLDINGS, sandbox: false, previous: true, errors: 20 });
  const wall: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const bytes: Record<string, number> = {};
  // Warm-up: modules loaded, every language's fonts parsed, code hot.
  for (const language of LANGUAGES) await writePdf({ ...data, language }, path.join(dir, `warm-${language}.pdf`));
  for (let round = 0; round < ROUNDS; round++) {
    for (const language of LANGUAGES) {
      const file = path.join(dir, `${language}-${round}.pdf`);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await writePdf({ ...data, language }, file);
      (wall[language] ??= []).push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      (cpu[language] ??= []).push((c.user + c.system) / 1000);
      bytes[language] = statSync(file).size;
      rmSync(file);
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
  }
  rmSync(dir, { recursive: true, force: true });
  const figures = Object.fromEntries(LANGUAGES.map((l) => [l, { cpu_median_ms: +median(cpu[l]!).toFixed(1), wall_median_ms: +median(wall[l]!).toFixed(1), bytes: bytes[l] }]));
  const ratios = Object.fromEntries(
    LANGUAGES.filter((l) => l !== 'en').flatMap((l) => [
      [`${l}_cpu_ratio`, +(median(cpu[l]!) / median(cpu.en!)).toFixed(3)],
      [`${l}_size_ratio`, +(bytes[l]! / bytes.en!).toFixed(3)],
    ]),
  );
  const met = ratios.de_cpu_ratio! <= GOAL.de_cpu_ratio && ratios.de_size_ratio! <= GOAL.de_size_ratio;
  console.log(
    JSON.stringify({
      bench: 'i18n-pdf',
      holdings: HOLDINGS,
      rounds: ROUNDS,
      load: [+loadBefore.toFixed(1), +os.loadavg()[0]!.toFixed(1)],
      ...figures,
      ...ratios,
      goal: GOAL,
      de_goal_met: met,
    }),
  );
}

await main();
