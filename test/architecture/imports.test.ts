import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../fixtures/commands';

/**
 * The layout is the architecture: src/ is the shared core; reports/ and addin/ build on it and
 * never import each other, except the add-in's host, which exports reports through the report
 * job's one entry module. Read with TypeScript's own import scanner, dynamic imports included.
 */

const FOLDERS = ['src', 'reports', 'addin', 'bench', 'test', 'fixtures'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every file's relative imports, as repository paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(path.join(ROOT, folder))) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = info.importedFiles
        .map((f) => f.fileName)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolveRelative(file, spec))
        .filter((t): t is string => t !== undefined)
        .map((t) => path.relative(ROOT, t));
      graph.set(path.relative(ROOT, file), targets);
    }
  }
  return graph;
}

const graph = importGraph();

function violations(from: (file: string) => boolean, forbidden: (target: string) => boolean): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) if (from(file)) for (const t of targets) if (forbidden(t)) out.push(`${file} → ${t}`);
  return out;
}

const under = (prefix: string) => (p: string) => p.startsWith(prefix);

describe('the direction of imports', () => {
  it('reads the tree (a scanner that finds nothing would pass everything)', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('reports/cli.ts')?.length).toBeGreaterThan(3);
  });

  it('src/ is the core: it imports nothing from the products, tests or benchmarks', () => {
    expect(violations(under('src/'), (t) => !t.startsWith('src/'))).toEqual([]);
  });

  it('reports/ builds on src/ alone', () => {
    expect(violations(under('reports/'), (t) => !t.startsWith('src/') && !t.startsWith('reports/'))).toEqual([]);
  });

  it("the add-in's browser code imports only src/ and the host↔pane contract", () => {
    expect(violations(under('addin/src/'), (t) => !t.startsWith('src/') && !t.startsWith('addin/src/') && !t.startsWith('addin/contract/'))).toEqual([]);
  });

  it('the add-in host uses the report job through reports/index.ts only', () => {
    expect(violations((f) => f.startsWith('addin/') && !f.startsWith('addin/src/'), (t) => t.startsWith('reports/') && t !== 'reports/index.ts')).toEqual([]);
  });

  it('benchmarks share fixtures with the tests through fixtures/, never test/', () => {
    expect(violations(under('bench/'), under('test/'))).toEqual([]);
  });

  it('no import cycles in the shipped code', () => {
    const shipped = [...graph.keys()].filter((f) => /^(src|reports|addin)\//.test(f));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 'open');
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t].join(' → '));
        else if (!state.has(t) && graph.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of shipped) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
