import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../fixtures/commands';

/**
 * The client as another team would take it: `npm pack`, the tarball unpacked into a scratch
 * project's node_modules as npm would, type-checked as a strict Node ESM consumer (module node16)
 * and run against the sandbox it ships. Its dependencies are linked from this repository's own
 * install (npm can't resolve them offline without registry metadata, and tests reach no network);
 * dev dependencies such as tsx are not there, so the compiled commands must run without them.
 */

const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
let work: string;
let scratch: string;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'svc-pack-'));
  // Built first, so the tarball holds the tree as it is now (prepare's output would mix into --json).
  npm(['run', 'build', '--silent'], ROOT);
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)) as { filename: string; files: { path: string }[] }[];
  const tarball = path.join(work, packed[0]!.filename);
  scratch = path.join(work, 'consumer');
  mkdirSync(scratch);
  writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { [PACKAGE.name]: PACKAGE.version } }));
  const modules = path.join(scratch, 'node_modules');
  mkdirSync(modules);
  execFileSync('tar', ['-xzf', tarball, '-C', work]);
  renameSync(path.join(work, 'package'), path.join(modules, PACKAGE.name));
  for (const dep of Object.keys(PACKAGE.dependencies)) {
    const target = path.join(modules, dep);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', dep), target, 'dir');
  }
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
}, 240_000);

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

  it('runs the compiled svc-report without tsx installed', () => {
    const bin = path.join(scratch, 'node_modules', PACKAGE.name, 'bin/svc-report.js');
    const out = execFileSync(process.execPath, [bin, '--help'], { cwd: scratch, encoding: 'utf8' });
    expect(out).toMatch(/run/);
    expect(() => readFileSync(path.join(scratch, 'node_modules/tsx/package.json'))).toThrow();
  });
});
