/**
 * `npm run demo` (issue 34: under 15 s on two cores with its twelve months of history) against
 * the month-end alone (the same run and dashboard with no history database, what the demo was
 * before issue 23), alternately in the same run, each from a fresh output folder as a newcomer
 * starts. Compiled, as `npm run demo` runs (needs `npm run build`).
 *
 * Wall time depends on what else the machine runs (it is shared), so each command's CPU time is
 * measured too, from /proc (Linux): the whole process's (every thread: the writers, PGlite's
 * file system, libuv's pool) and its main thread's, the one the history, the valuations and the
 * database share (the critical path). /proc is read every 50 ms while the command runs: the
 * last 50 ms of a command may be missed.
 *
 *   npx tsx bench/demo.ts [--rounds N]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../fixtures/commands';
import { DEMO_FILES } from '../reports/demo/demo-command';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
const ROUNDS = Number(values.rounds);
const script: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.demo;
const examples = (f: string) => path.join('examples', f);
const files = DEMO_FILES.map(examples).join(' ');
/** Clock ticks a second (USER_HZ): 100 on every Linux Node supports. */
const TICKS = 100;
const POLL_MS = 50;

/** `npm run demo` into `out` (a fresh temporary folder). */
const demoCommands = (out: string) => [`${script} --out ${out}`];
/** The month-end alone, as the demo was before its history (issue 23): the same run and dashboard, with no history database. */
const monthEndCommands = (out: string) => [
  `node bin/svc-report.js run ${files} --db off --out ${out}/demo --config ${examples('svc-report.config.json')}`,
  `node bin/svc-report.js dashboard --out ${out}/demo --config ${examples('svc-report.config.json')}`,
];

interface Measured {
  wallMs: number;
  /** User and system time of every thread. */
  cpuMs: number;
  /** User and system time of the main thread alone. */
  mainMs: number;
}

/** utime + stime (ms) from a /proc stat line; undefined once the process is gone. */
function cpuOf(statFile: string): number | undefined {
  try {
    // The command's name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return undefined;
  }
}

/** Runs one command (exec'd by sh, so its pid is node's) and measures it. */
function measured(command: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('sh', ['-c', `exec ${command}`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    let cpuMs = 0;
    let mainMs = 0;
    const poll = () => {
      cpuMs = cpuOf(`/proc/${child.pid}/stat`) ?? cpuMs;
      mainMs = cpuOf(`/proc/${child.pid}/task/${child.pid}/stat`) ?? mainMs;
    };
    const timer = setInterval(poll, POLL_MS);
    child.on('exit', () => poll());
    child.on('close', (code) => {
      clearInterval(timer);
      // The month-end exits 3 when a holding was bought after a past month-end; anything else is a failure.
      if (code !== 0 && code !== 3) return reject(new Error(`${command} exited ${code}: ${stderr}`));
      resolve({ wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs, mainMs });
    });
  });
}

async function timed(commandsFor: (out: string) => string[]): Promise<Measured> {
  const out = mkdtempSync(path.join(tmpdir(), 'bench-demo-'));
  const total: Measured = { wallMs: 0, cpuMs: 0, mainMs: 0 };
  try {
    for (const c of commandsFor(out)) {
      const m = await measured(c);
      total.wallMs += m.wallMs;
      total.cpuMs += m.cpuMs;
      total.mainMs += m.mainMs;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return total;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const describe = (m: Measured) => `${s(m.wallMs)} (CPU ${s(m.cpuMs)}, main thread ${s(m.mainMs)})`;
const demo: Measured[] = [];
const alone: Measured[] = [];
const loads: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  loads.push(loadavg()[0]!);
  demo.push(await timed(demoCommands));
  alone.push(await timed(monthEndCommands));
  console.error(`round ${i + 1} (load ${loads.at(-1)!.toFixed(1)}): demo ${describe(demo.at(-1)!)}, month-end alone ${describe(alone.at(-1)!)}`);
}
const med = (xs: Measured[], k: keyof Measured) => Math.round(median(xs.map((x) => x[k])));
const result = {
  bench: 'demo',
  rounds: ROUNDS,
  load_average: Number(median(loads).toFixed(1)),
  demo_ms: med(demo, 'wallMs'),
  month_end_alone_ms: med(alone, 'wallMs'),
  history_ms: med(demo, 'wallMs') - med(alone, 'wallMs'),
  ratio: Number((med(demo, 'wallMs') / med(alone, 'wallMs')).toFixed(2)),
  demo_cpu_ms: med(demo, 'cpuMs'),
  month_end_alone_cpu_ms: med(alone, 'cpuMs'),
  cpu_ratio: Number((med(demo, 'cpuMs') / med(alone, 'cpuMs')).toFixed(2)),
  demo_main_thread_cpu_ms: med(demo, 'mainMs'),
  month_end_alone_main_thread_cpu_ms: med(alone, 'mainMs'),
  main_thread_cpu_ratio: Number((med(demo, 'mainMs') / med(alone, 'mainMs')).toFixed(2)),
  goal_demo_ms: 15_000,
};
console.error(
  `npm run demo: ${s(result.demo_ms)} against the month-end alone ${s(result.month_end_alone_ms)} (${result.ratio}×); CPU ${s(result.demo_cpu_ms)} against ${s(result.month_end_alone_cpu_ms)} (${result.cpu_ratio}×), main thread ${s(result.demo_main_thread_cpu_ms)} against ${s(result.month_end_alone_main_thread_cpu_ms)} (${result.main_thread_cpu_ratio}×); median of ${ROUNDS}, load average ${result.load_average}`,
);
console.log(JSON.stringify(result));
