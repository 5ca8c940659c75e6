import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT_PREFIX = 'svc-test-run-';
/** Names the project's tests, servers and browsers give their temporary files (benchmarks' bench-* are not the tests'). */
const OURS = /^(svc-|sandbox-|addin-|report-|pg-|redis-|prometheus-|oidc-|tsa-|\.org\.chromium\.|playwright)/;

/**
 * One temporary folder for the whole run, removed after it: every test (and every process a test
 * starts, which inherits TMPDIR) makes its temporary files under it, so a run leaves nothing
 * behind in the system's temp directory, even when a test fails before its own cleanup. After
 * the run, anything of ours that appeared in the system's temp directory anyway (a process
 * started without TMPDIR) fails the run, named.
 */
export default function setup(): () => void {
  const system = tmpdir();
  const before = new Set(readdirSync(system));
  const root = mkdtempSync(join(system, ROOT_PREFIX));
  process.env.TMPDIR = root;
  // The history database (issue 23): a run records into the user's data folder by default. The
  // tests' runs record nowhere unless a test gives --db (history tests do; one checks the default
  // with its own XDG_DATA_HOME), so parallel runs never share, or leave, a database.
  process.env.SVC_DB_URL = 'off';
  process.env.XDG_DATA_HOME = join(root, 'xdg-data');
  return () => {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    // Another run's root (a second checkout testing at the same time) is that run's to remove.
    const left = readdirSync(system).filter((name) => !before.has(name) && OURS.test(name) && !name.startsWith(ROOT_PREFIX));
    if (left.length === 0) return;
    // vitest reports an error thrown here but keeps its exit code: set the code as well.
    process.exitCode = 1;
    throw new Error(`the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in ${system}: ${left.slice(0, 10).join(', ')} (start processes with TMPDIR passed on)`);
  };
}
