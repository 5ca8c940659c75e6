import { defineConfig } from 'tsup';

/**
 * The package's compiled form: ESM for Node 20, dependencies left as imports. The library
 * entries (`.`, `./wire`, `./sandbox`) ship bundled type declarations; the commands are
 * plain JavaScript, so nothing compiles TypeScript at run time.
 */
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    wire: 'src/wire/index.ts',
    sandbox: 'src/sandbox/index.ts',
    'cli/svc-report': 'reports/cli.ts',
    'cli/svc-sandbox': 'src/sandbox/cli.ts',
    'cli/addin-serve': 'addin/server/cli.ts',
    'cli/addin-build': 'addin/build/cli.ts',
    // svc-report writes reports in worker threads (reports/run/write-pool.ts) from this file.
    'cli/report-writer': 'reports/run/write-worker.ts',
    // The empty embedded database new folders start from (src/db/pglite-template.ts), written at build.
    'cli/db-template': 'src/db/template-cli.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  splitting: true,
  sourcemap: false,
  skipNodeModulesBundle: true,
  dts: { entry: { index: 'src/index.ts', wire: 'src/wire/index.ts', sandbox: 'src/sandbox/index.ts' } },
});
