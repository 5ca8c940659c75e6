import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'tsup';
import config from '../../tsup.config';
import { COMPILED_COMMANDS_ENV, ROOT } from '../../fixtures/commands';
import { ensureTemplate } from '../../src/db/pglite-template';

/**
 * Compiles the commands once for the whole run, from the tree as it is, into a folder of the
 * run's own (not dist/, which the package test rebuilds meanwhile): each of the hundreds of
 * processes the tests start then loads plain JavaScript instead of compiling through tsx, several
 * times faster. Under node_modules/.cache so the build finds the package root and its
 * dependencies as dist/ does. Removed after the run.
 */
export default async function setup(): Promise<() => void> {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(path.join(cache, 'svc-test-commands-'));
  const options = Array.isArray(config) ? config[0] : config;
  await build({ ...options, outDir, dts: false, silent: true, config: false });
  // The empty database every new folder in the run is copied from (npm run build makes it too).
  await ensureTemplate();
  process.env[COMPILED_COMMANDS_ENV] = outDir;
  return () => rmSync(outDir, { recursive: true, force: true });
}
