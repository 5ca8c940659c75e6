import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../fixtures/commands';

/**
 * The client as another team would take it: `npm pack`, then a scratch project that depends on
 * the tarball and installs it with `npm ci --offline`: npm itself unpacks the package, places its
 * dependencies and links its commands, from the npm cache only (the tests reach no network). The
 * scratch project's lock is this repository's lock without its dev entries, plus the tarball, so
 * npm installs exactly the production tree this repository was tested with, and every tarball
 * it needs is in the cache that this repository's own `npm ci` filled (CI runs it first). The
 * consumer is type-checked as a strict Node ESM consumer (module node16) and run against the
 * sandbox the package ships; dev dependencies such as tsx are not installed, so the compiled
 * commands must run without them.
 */

interface Manifest {
  name: string;
  version: string;
  license?: string;
  engines?: Record<string, string>;
  bin?: Record<string, string>;
  dependencies: Record<string, string>;
  overrides?: Record<string, unknown>;
}
interface LockEntry {
  dev?: boolean;
  [field: string]: unknown;
}
interface Lock {
  packages: Record<string, LockEntry>;
}

const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
let work: string;
let scratch: string;

/**
 * Under `npm test` the environment names this repository as npm's project (npm_config_local_prefix,
 * npm_package_*): left out, so an npm run in the scratch project can only ever act on the folder it runs in.
 */
const NPM_ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(config_local_prefix$|package_|lifecycle_)/i.test(key)));

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...NPM_ENV, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
}

/**
 * The consumer's package-lock.json: the tarball as its one dependency, and every entry of this
 * repository's lock that production needs (npm marks the rest `dev`; `devOptional` entries are
 * also optional production ones). Locations stay valid: a production package's dependencies are
 * production packages, placed where they were.
 */
function consumerLock(tarball: string, integrity: string): object {
  const repoLock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const production = Object.entries(repoLock.packages).filter(([location, entry]) => location !== '' && !entry.dev);
  const spec = `file:${tarball}`;
  const { name, version, license, engines, bin, dependencies } = PACKAGE;
  return {
    name: 'consumer',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'consumer', dependencies: { [name]: spec } },
      [`node_modules/${name}`]: { version, resolved: spec, integrity, license, engines, bin, dependencies },
      ...Object.fromEntries(production),
    },
  };
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'svc-pack-'));
  // Built first, so the tarball holds the tree as it is now (prepare's output would mix into --json).
  npm(['run', 'build', '--silent'], ROOT);
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)) as { filename: string; integrity: string }[];
  scratch = path.join(work, 'consumer');
  mkdirSync(scratch);
  const tarball = `../${packed[0]!.filename}`;
  // npm applies overrides at the root alone: a consumer keeps exceljs's retired dependencies out by
  // copying ours (docs/security.md, Dependencies), as this one does.
  writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { [PACKAGE.name]: `file:${tarball}` }, overrides: PACKAGE.overrides }));
  writeFileSync(path.join(scratch, 'package-lock.json'), JSON.stringify(consumerLock(tarball, packed[0]!.integrity)));
  // --offline: from the cache or not at all; npm names any tarball the cache lacks (ENOTCACHED).
  npm(['ci', '--offline', '--no-audit', '--no-fund'], scratch);
  writeFileSync(
    path.join(scratch, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: false, types: [], lib: ['ES2023', 'DOM'], outDir: 'out' }, include: ['main.ts'] }),
  );
  writeFileSync(
    path.join(scratch, 'main.ts'),
    `import { createClient, ServiceError } from '${PACKAGE.name}';
import { SEGMENTS, type ValuationRequest } from '${PACKAGE.name}/wire';
import { startSandbox } from '${PACKAGE.name}/sandbox';

const sandbox = await startSandbox({ port: 0, quiet: true });
try {
  const client = createClient({ baseUrl: sandbox.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret', tier: 'pro' });
  const request: ValuationRequest = { segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN', year: 2021 };
  const valuation = await client.valuations.create(request);
  let refused = '';
  try {
    await client.valuations.create({ ...request, segment: 'yachts' as ValuationRequest['segment'] });
  } catch (e) {
    refused = e instanceof ServiceError || (e as Error).name ? (e as Error).name : 'unknown';
  }
  console.log(JSON.stringify({ segments: SEGMENTS.length, asset_id: valuation.asset_id, mid: valuation.estimated_value.mid, refused }));
} finally {
  await sandbox.close();
}
`,
  );
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the package, installed from its tarball', () => {
  it('ships the compiled entries and their declarations, not the TypeScript sources of the core', () => {
    const installed = path.join(scratch, 'node_modules', PACKAGE.name);
    const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining(['.', './wire', './sandbox']));
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/wire.js', 'dist/wire.d.ts', 'dist/sandbox.js', 'dist/sandbox.d.ts', 'dist/cli/svc-report.js']) {
      expect(() => readFileSync(path.join(installed, file)), file).not.toThrow();
    }
    expect(() => readFileSync(path.join(installed, 'src/client/client.ts'))).toThrow();
  });

  // The consumer's type-check reads every declaration file it imports (skipLibCheck off), slow on a loaded machine.
  it('type-checks as a strict Node ESM consumer and values an asset against the bundled sandbox', { timeout: 300_000 }, () => {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', scratch], { cwd: scratch, encoding: 'utf8' });
    const out = execFileSync(process.execPath, [path.join(scratch, 'out/main.js')], { cwd: scratch, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { segments: number; asset_id: string; mid: number; refused: string };
    expect(result.segments).toBe(10);
    expect(result.asset_id).toMatch(/^SVC-WAT-ROLEX-126610LN/);
    expect(result.mid).toBeGreaterThan(1000);
    expect(result.refused).toMatch(/Error$/);
  });

  it('npm installed the production dependencies, none of the dev ones', () => {
    const modules = path.join(scratch, 'node_modules');
    for (const dep of Object.keys(PACKAGE.dependencies)) {
      // Unpacked by npm into the consumer, not linked to this repository's copy.
      expect(lstatSync(path.join(modules, dep)).isDirectory(), dep).toBe(true);
    }
    for (const dev of ['tsx', 'typescript', 'vitest', 'tsup']) {
      expect(() => readFileSync(path.join(modules, dev, 'package.json')), dev).toThrow();
    }
  });

  it('runs the compiled svc-report through the command npm linked, without tsx installed', () => {
    const out = execFileSync(path.join(scratch, 'node_modules/.bin/svc-report'), ['--help'], { cwd: scratch, encoding: 'utf8' });
    expect(out).toMatch(/run/);
  });
});
