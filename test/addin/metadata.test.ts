import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { buildAddin, generateMetadata, MetadataError, type BuildResult } from '../../addin/build/build';
import { rewriteManifest } from '../../addin/build/manifest';

interface Param {
  name: string;
  type?: string;
  dimensionality?: string;
  optional?: boolean;
}
interface FunctionMeta {
  id: string;
  name: string;
  parameters: Param[];
  result: { type?: string; dimensionality?: string };
  options?: { cancelable?: boolean; stream?: boolean; volatile?: boolean };
}

let dist: string;
let built: BuildResult;
let functions: FunctionMeta[];

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-meta-'));
  built = await buildAddin({ outDir: dist, origin: 'https://addin.example.com', deploymentKey: 'key-123456789' });
  functions = (JSON.parse(await readFile(path.join(dist, 'functions.json'), 'utf8')) as { functions: FunctionMeta[] }).functions;
});

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

/** name:type, with ? for optional and [][] for ranges: the signature Excel shows. */
const signature = (f: FunctionMeta) => f.parameters.map((p) => `${p.name}:${p.type ?? 'any'}${p.dimensionality === 'matrix' ? '[][]' : ''}${p.optional ? '?' : ''}`).join(', ');

describe('functions.json', () => {
  it('has every SVC function with the expected parameters', () => {
    const got = Object.fromEntries(functions.map((f) => [f.id, signature(f)]));
    expect(got).toEqual({
      MIDVALUE: 'asset:string, currency:string?',
      VALUATION: 'asset:string, currency:string?, show_headers:boolean?',
      SCORE: 'asset:string',
      FACTORS: 'asset:string, show_headers:boolean?',
      PROJECTION: 'asset:string, horizon:number, scenario:string?, measure:string?, current_value:number?, currency:string?',
      EXPECTEDROI: 'asset:string, horizon:number, current_value:number?',
      SIGNAL: 'segment:string, field:string',
      SEGMENT: 'segment:string, field:string',
      EXITNET: 'asset:string, channel:string?, urgency:string?, current_value:number?',
      ASSET: 'asset:string, currency:string?',
      COVER: 'asset:string, insured_value:number, currency:string?',
      ASSETID: 'segment:string, brand:string, model:string, reference:string?, year:number?, size:string?',
      VALUEHOLDINGS: 'holdings:any[][], currency:string?',
      ALERTS: 'segment:string?, refresh_minutes:number?',
      HISTORY: 'portfolio_or_asset_id:string, from:any?, to:any?, show_headers:boolean?',
      PERFORMANCE: 'portfolio:string, period:string, measure:string?',
      REFRESH: 'trigger:any?',
    });
  });

  it('marks cancelable, streaming and spilled functions, and none volatile', () => {
    const byId = Object.fromEntries(functions.map((f) => [f.id, f]));
    for (const id of ['MIDVALUE', 'VALUATION', 'SCORE', 'FACTORS', 'PROJECTION', 'EXPECTEDROI', 'SIGNAL', 'SEGMENT', 'EXITNET', 'VALUEHOLDINGS', 'HISTORY', 'PERFORMANCE', 'COVER']) {
      expect(byId[id]!.options?.cancelable, id).toBe(true);
    }
    expect(byId.ALERTS!.options?.stream).toBe(true);
    for (const id of ['VALUATION', 'FACTORS', 'VALUEHOLDINGS', 'ALERTS', 'ASSET', 'HISTORY']) expect(byId[id]!.result.dimensionality, id).toBe('matrix');
    expect(functions.some((f) => f.options?.volatile)).toBe(false);
  });

  it('declares SVC.ASSET a matrix: the valuation row of builds without entity values spills, a card is one cell of it', () => {
    // Declared a single value, Excel may show only the row's first field where cards are unsupported.
    expect(functions.find((f) => f.id === 'ASSET')!.result).toEqual({ dimensionality: 'matrix' });
  });

  it('uses no name of an Excel built-in function', () => {
    const builtIns = ['VALUE', 'MID', 'SUM', 'ROUND', 'INDEX', 'MATCH', 'LOOKUP', 'TEXT', 'RATE', 'NPV', 'FV', 'PV', 'SIGN', 'FILTER', 'SORT', 'UNIQUE', 'NOW', 'TODAY', 'RANK', 'PERCENTILE', 'FORECAST', 'TREND', 'GROWTH', 'STOCKHISTORY', 'FIELDVALUE', 'ISREF'];
    for (const f of functions) expect(builtIns, f.name).not.toContain(f.name);
  });

  it('associates in the bundle exactly the ids of the metadata', async () => {
    const associated: Record<string, unknown> = {};
    const sandbox = {
      window: { location: { origin: 'https://addin.example.com', search: '' }, sessionStorage: undefined },
      location: { origin: 'https://addin.example.com', search: '' },
      CustomFunctions: {
        associate: (id: string, fn: unknown) => (associated[id] = fn),
        Error: class {},
        ErrorCode: {},
      },
      fetch: () => Promise.reject(new Error('no network in this test')),
      setTimeout,
      clearTimeout,
      URLSearchParams,
      AbortController,
      TextEncoder,
      TextDecoder,
      console,
    };
    vm.runInNewContext(await readFile(path.join(dist, 'functions.js'), 'utf8'), sandbox);
    expect(Object.keys(associated).sort()).toEqual(functions.map((f) => f.id).sort());
    expect(Object.values(associated).every((fn) => typeof fn === 'function')).toBe(true);
    expect(Object.keys(built.associations).sort()).toEqual(Object.keys(associated).sort());
  });

  it('fails the build when the metadata tool reports a problem', async () => {
    const bad = path.join(dist, 'bad-functions.ts');
    await writeFile(bad, `/**\n * Broken.\n * @customfunction\n * @param when A date.\n */\nexport function broken(when: Date): number { return 1; }\n`);
    await expect(generateMetadata(bad)).rejects.toBeInstanceOf(MetadataError);
    await expect(generateMetadata(bad)).rejects.toThrow(/broken|Date|type/i);
  });
});

describe('manifest', () => {
  // Vendored with their source and licence (schemas/office-addin-manifest/README.md): the repository stands alone.
  const schema = path.join(import.meta.dirname, 'schemas/office-addin-manifest/OfficeAppManifestV1_1.xsd');
  const validate = (xml: string) =>
    execFileSync('sh', ['-c', `sed '/<Runtimes>/,/<\\/Runtimes>/d' | xmllint --noout --nonet --schema '${schema}' - 2>&1`], { input: xml }).toString();

  it('validates against the Office add-in manifest schema, as committed and as built', async () => {
    expect(validate(await readFile('manifest.xml', 'utf8'))).toMatch(/validates/);
    expect(validate(await readFile(path.join(dist, 'manifest.xml'), 'utf8'))).toMatch(/validates/);
  });

  it('declares the shared runtime the functions page and function file use', async () => {
    const xml = await readFile('manifest.xml', 'utf8');
    const runtime = /<Runtimes>\s*<Runtime resid="([^"]+)" lifetime="long"\s*\/>\s*<\/Runtimes>/.exec(xml);
    expect(runtime).not.toBeNull();
    const resid = runtime![1]!;
    expect(xml).toMatch(new RegExp(`<bt:Url id="${resid}" DefaultValue="https://localhost:3000/taskpane.html"/>`));
    expect(/<Page>\s*<SourceLocation resid="([^"]+)"\/>\s*<\/Page>/.exec(xml)?.[1]).toBe(resid);
    expect(/<FunctionFile resid="([^"]+)"\/>/.exec(xml)?.[1]).toBe(resid);
    expect(xml).toMatch(/<Requirements>\s*<Sets DefaultMinVersion="1.1">\s*<Set Name="SharedRuntime" MinVersion="1.1"\/>/);
    expect(/<bt:String id="Functions.Namespace" DefaultValue="([^"]+)"\/>/.exec(xml)?.[1]).toBe('SVC');
    expect(xml).toMatch(/<Action xsi:type="ShowTaskpane">/);
  });

  it('moves every URL to the configured origin and carries the deployment key in the page URL only', async () => {
    const xml = await readFile(path.join(dist, 'manifest.xml'), 'utf8');
    expect(xml).not.toContain('localhost');
    const urls = [...xml.matchAll(/(?:DefaultValue="|<AppDomain>)(https?:\/\/[^"<]+)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(8);
    expect(urls.every((u) => u.startsWith('https://addin.example.com'))).toBe(true);
    expect(xml).toContain('<bt:Url id="Shared.Url" DefaultValue="https://addin.example.com/taskpane.html?deployment_key=key-123456789"/>');
    expect(xml.match(/key-123456789/g)).toHaveLength(1);
    expect(() => rewriteManifest(xml, { origin: 'http://addin.example.com' })).toThrow(/https/);
    expect(() => rewriteManifest(xml, { origin: 'https://a.example', deploymentKey: 'short' })).toThrow(/8 to 200/);
  });
});
