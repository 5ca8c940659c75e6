/**
 * `npm run demo` (issue 34: under 15 s on two cores with its twelve months of history) against
 * the month-end alone (the same run and dashboard with no history database, what the demo was
 * before issue 23), alternately in the same run, each from a fresh output folder as a newcomer
 * starts. Wall time of the commands as `npm run demo` runs them (compiled; needs `npm run build`).
 *
 *   npx tsx bench/demo.ts [--rounds N]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../fixtures/commands';
import { DEMO_FILES } from '../reports/demo/demo-command';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
const ROUNDS = Number(values.rounds);
const script: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.demo;
const examples = (f: string) => path.join('examples', f);
const files = DEMO_FILES.map(examples).join(' ');

/** `npm run demo` into `out` (a fresh temporary folder). */
const demoCommands = (out: string) => [`${script} --out ${out}`];
/** The month-end alone, as the demo was before its history (issue 23): the same run and dashboard, with no history database. */
const monthEndCommands = (out: string) => [
  `node bin/svc-report.js run ${files} --db off --out ${out}/demo --config ${examples('svc-report.config.json')}`,
  `node bin/svc-report.js dashboard --out ${out}/demo --config ${examples('svc-report.config.json')}`,
];

function timed(commandsFor: (out: string) => string[]): number {
  const out = mkdtempSync(path.join(tmpdir(), 'bench-demo-'));
  const started = process.hrtime.bigint();
  for (const c of commandsFor(out)) {
    const r = spawnSync('sh', ['-c', c], { cwd: ROOT, encoding: 'utf8' });
    // The month-end exits 3 when a holding was bought after a past month-end; anything else is a failure.
    if (r.status !== 0 && r.status !== 3) throw new Error(`${c} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  rmSync(out, { recursive: true, force: true });
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const demo: number[] = [];
const alone: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  demo.push(timed(demoCommands));
  alone.push(timed(monthEndCommands));
  console.error(`round ${i + 1}: demo ${(demo.at(-1)! / 1000).toFixed(1)} s, month-end alone ${(alone.at(-1)! / 1000).toFixed(1)} s`);
}
const result = {
  bench: 'demo',
  rounds: ROUNDS,
  demo_ms: Math.round(median(demo)),
  month_end_alone_ms: Math.round(median(alone)),
  history_ms: Math.round(median(demo) - median(alone)),
  ratio: Number((median(demo) / median(alone)).toFixed(2)),
  goal_demo_ms: 15_000,
};
console.error(`npm run demo: ${(result.demo_ms / 1000).toFixed(1)} s against the month-end alone ${(result.month_end_alone_ms / 1000).toFixed(1)} s (${result.ratio}×; median of ${ROUNDS})`);
console.log(JSON.stringify(result));
