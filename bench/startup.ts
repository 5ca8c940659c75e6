/**
 * How long `svc-report --help` takes to start: the compiled command (node bin/svc-report.js,
 * what users run) against the TypeScript source run through tsx (how the command started before
 * it was compiled), measured alternately in the same run. Needs a build (`npm run build`).
 *
 *   npx tsx bench/startup.ts
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, sourceCommand } from '../fixtures/commands';

const RUNS = 15;

function timeOnce(args: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const compiled = [path.join(ROOT, 'bin/svc-report.js'), '--help'];
const throughTsx = [...sourceCommand('svc-report'), '--help'];
timeOnce(compiled); // warm the file cache for both
timeOnce(throughTsx);
const a: number[] = [];
const b: number[] = [];
for (let i = 0; i < RUNS; i++) {
  a.push(timeOnce(compiled));
  b.push(timeOnce(throughTsx));
}
const result = {
  bench: 'startup',
  runs: RUNS,
  compiled_help_ms: Math.round(median(a)),
  tsx_help_ms: Math.round(median(b)),
  ratio: Number((median(a) / median(b)).toFixed(3)),
};
console.error(`svc-report --help: compiled ${result.compiled_help_ms} ms, through tsx ${result.tsx_help_ms} ms (median of ${RUNS})`);
console.log(JSON.stringify(result));
