import { build } from 'esbuild';

/**
 * The client as the add-in's browser runtime gets it: one minified IIFE exposing the package
 * entry of src/client as `globalThis.svc`, zod schemas included. Built for the browser
 * platform, so a stray Node import fails the build.
 */
export async function buildBrowserClient(): Promise<string> {
  const result = await build({
    entryPoints: [new URL('../../src/client/index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'svc',
    target: ['chrome110', 'safari16'],
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
