import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../../fixtures/commands';

/**
 * A test's helper script (a second process holding a database, a client on another gate)
 * compiled once to plain JavaScript, as test/support/compiled-commands.ts does for the commands:
 * `node --import tsx` compiles the script and everything it imports again in every process, about
 * 8 s more per start on the loaded 2-core machine (measured for issue 34's budget). Dependencies
 * stay imports, resolved from node_modules: the output sits under node_modules/.cache, inside the
 * package, so it finds the package root as the source does. Returns the file and a cleanup.
 */
export async function compiledScript(entry: string): Promise<{ file: string; remove(): void }> {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'svc-test-script-'));
  const file = path.join(dir, `${path.basename(entry, '.ts')}.mjs`);
  await build({ entryPoints: [entry], outfile: file, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
