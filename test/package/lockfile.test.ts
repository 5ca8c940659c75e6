import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../fixtures/commands';

/**
 * `npm ci` refuses a lock that lacks any optional dependency a locked package declares, even one
 * for another platform ("Missing: @rollup/rollup-darwin-x64 from lock file"). A registry that
 * doesn't serve a platform build of the newest version makes `npm install` silently leave it
 * out, and CI then fails before a single test runs. This reads the lock as `npm ci` does.
 */

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };

/** Where Node would find `name` from the package installed at `from`: its own node_modules, then each parent's. */
function resolveLocked(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

describe('package-lock.json', () => {
  it('locks every optional dependency of every locked package, for every platform', () => {
    const missing: string[] = [];
    for (const [location, locked] of Object.entries(lock.packages)) {
      for (const name of Object.keys(locked.optionalDependencies ?? {})) {
        if (!resolveLocked(location, name)) missing.push(`${location} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds a package through its parents as Node does (the check above can fail)', () => {
    expect(resolveLocked('node_modules/rollup', 'fsevents')).toBe('node_modules/fsevents');
    expect(resolveLocked('node_modules/rollup', '@rollup/no-such-platform')).toBeUndefined();
  });
});

/**
 * exceljs 4.4.0 (the newest) still declares unzipper 0.10 (fstream, rimraf 2), archiver 5
 * (archiver-utils with glob 7 and inflight) and uuid 8, each retired or advised against; the
 * overrides in package.json pin fixed versions (glob 10 only where archiver-utils' glob helpers
 * are reached, which exceljs never calls). The xlsx tests prove the workbook is unchanged; this
 * proves the retired packages are gone from what ships.
 */
describe('production dependencies', () => {
  const major = (v: string | undefined) => Number((v ?? '0').split('.')[0]);
  const minor = (v: string | undefined) => Number((v ?? '0.0').split('.')[1]);
  const retired: Record<string, (version: string | undefined) => boolean> = {
    fstream: () => true,
    inflight: () => true,
    rimraf: (v) => major(v) < 4,
    glob: (v) => major(v) < 9,
    unzipper: (v) => major(v) === 0 && minor(v) < 12,
    uuid: (v) => major(v) < 9,
  };

  it('locks none of the retired packages exceljs declares', () => {
    const found: string[] = [];
    for (const [location, locked] of Object.entries(lock.packages) as [string, LockedPackage & { dev?: boolean }][]) {
      if (locked.dev) continue;
      const name = location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
      if (retired[name]?.(locked.version)) found.push(`${location}@${locked.version ?? '?'}`);
    }
    expect(found).toEqual([]);
  });
});
