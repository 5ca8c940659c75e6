import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../../addin/build/build';
import { ROOT } from '../../fixtures/commands';

/**
 * The add-in's bundles are minified, and the add-in tells the client's errors apart by class name
 * (a cell's #N/A reason, the offline fallback, logs). Built with the add-in's own options, an
 * error keeps its name.
 */
describe('add-in bundles', () => {
  it("keep the client's error class names through minification", async () => {
    const entry = `import { ConnectionError, AbortedError } from './src/client/errors';
globalThis.names = [new ConnectionError({ status: 0, type: 'connection_error', message: 'x' }).name, new AbortedError({ status: 0, type: 'aborted', message: 'y' }).name];`;
    const out = await build({ ...bundleOptions(true), stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, write: false });
    const sandbox: { names?: string[] } = {};
    runInNewContext(out.outputFiles[0]!.text, Object.assign(sandbox, { globalThis: sandbox, Headers }));
    expect(sandbox.names).toEqual(['ConnectionError', 'AbortedError']);
  });
});
