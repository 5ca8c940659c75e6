import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ServiceClient } from '../../src/client';
import { translator } from '../../src/i18n';
import { REPORT_FORMATS } from '../../src/report-formats';
import { buildAddin, type BuildResult } from '../../addin/build/build';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { startStack, type Stack } from './stack';
import { startAddinHost } from '../../addin/server/host';
import { writeHoldings, writeStandinPages } from './browser-pages';

interface CellResult {
  ok: boolean;
  value?: unknown;
  code?: string;
  message?: string;
}

/** 300 distinct asset ids the sandbox issued for catalogue assets (fixtures/issued-ids.ts): none typed by hand. */
let ASSETS: string[];

let stack: Stack;
let dist: string;
let built: BuildResult;
let browser: Browser;

async function page(file: string): Promise<Page> {
  const p = await browser.newPage({ viewport: { width: 360, height: 900 } });
  await p.goto(`${stack.host.url}/${file}`);
  return p;
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-dist-'));
  built = await buildAddin({ outDir: dist });
  await writeStandinPages(dist);
  await writeHoldings(dist, [
    ['Segment', 'Brand', 'Model', 'Reference', 'Year', 'Condition', 'Quantity', 'Purchase price', 'Purchase date'],
    ['watches', 'Rolex', 'Submariner', '126610LN', 2021, 'excellent', 1, 9500, 44197],
    ['art', 'Banksy', 'Girl with Balloon', '', 2004, '', 1, 250000, '2019-05-01'],
    ['wine', 'Petrus', 'Pomerol', '', 2010, '', 6, 18000, '2015-01-10'],
    ['boats', 'Riva', 'Aquarama', '', 1968, '', 1, 500000, '2010-01-01'],
  ]);
  stack = await startStack({ host: { distDir: dist } });
  ASSETS = await realCatalogueIds(stack.sandboxUrl, stack.account, 300);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('custom functions in a browser, behind the add-in host', () => {
  it('associates exactly the metadata ids', async () => {
    const p = await page('cf-standin.html');
    await p.waitForFunction(() => Object.keys((window as unknown as { __associated: object }).__associated).length > 0);
    const ids = await p.evaluate(() => Object.keys((window as unknown as { __associated: object }).__associated).sort());
    const metadata = JSON.parse(await readFile(path.join(dist, 'functions.json'), 'utf8')) as { functions: { id: string }[] };
    expect(ids).toEqual(metadata.functions.map((f) => f.id).sort());
    expect(ids).toEqual([...built.functionIds].sort());
    await p.close();
  });

  it('settles 1,000 concurrent cells over 300 assets with the right values in 6 batch calls', async () => {
    const p = await page('cf-standin.html');
    await p.waitForFunction(() => 'MIDVALUE' in (window as unknown as { __associated: object }).__associated);
    const before = (await stack.log()).length;
    const cells = Array.from({ length: 1000 }, (_, i) => ({ id: ['MIDVALUE', 'SCORE', 'VALUATION'][i % 3]!, asset: ASSETS[i % 300]! }));
    const results = await p.evaluate(async (cs) => {
      const w = window as unknown as { __invoke(id: string, args: unknown[], o?: object): Promise<unknown> };
      return Promise.all(cs.map((c, i) => w.__invoke(c.id, [c.asset], { address: `Sheet1!A${i + 1}` })));
    }, cells) as CellResult[];
    const batchCalls = (await stack.log()).slice(before).filter((l) => l.path === '/v1/valuations/batch');
    expect(batchCalls).toHaveLength(6);
    expect(batchCalls.every((l) => l.items <= 50)).toBe(true);

    // The right value for every cell: the same 300 assets valued directly in Node.
    const client = new ServiceClient({ baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret, rateLimitKey: 'browser-expected' });
    const expected = await client.valueAll(ASSETS.map((a) => requestForAssetId(holdingForAssetId('asset', a))));
    results.forEach((r, i) => {
      const e = expected[i % 300]!;
      if (!e.ok) throw e.error;
      expect(r.ok, `cell ${i}: ${r.message}`).toBe(true);
      const id = cells[i]!.id;
      if (id === 'MIDVALUE') expect(r.value).toMatchObject({ type: 'FormattedNumber', basicValue: e.value.estimated_value.mid });
      if (id === 'SCORE') expect(r.value).toBe(e.value.service_score);
      if (id === 'VALUATION') {
        const row = (r.value as unknown[][])[0]!;
        expect(row).toHaveLength(7);
        expect(row[1]).toMatchObject({ basicValue: e.value.estimated_value.mid });
        expect(row[6]).toBe(ASSETS[i % 300]);
      }
    });
    await p.close();
  });

  it('answers bad input with #VALUE! naming the argument and its allowed values; null optionals; preview spends nothing', async () => {
    const p = await page('cf-standin.html');
    await p.waitForFunction(() => 'MIDVALUE' in (window as unknown as { __associated: object }).__associated);
    const r = (await p.evaluate(async (asset) => {
      const w = window as unknown as { __invoke(id: string, args: unknown[], o?: object): Promise<unknown> };
      return Promise.all([
        w.__invoke('MIDVALUE', ['not an id']),
        w.__invoke('MIDVALUE', [asset, 'JPY']),
        w.__invoke('PROJECTION', [asset, 18]),
        w.__invoke('SIGNAL', ['boats', 'change_30d']),
        w.__invoke('SIGNAL', ['watches', 'colour']),
        w.__invoke('MIDVALUE', [asset, null]),
        w.__invoke('SIGNAL', ['Watches', 'change_30d']),
        w.__invoke('ASSETID', ['watches', 'Rolex', 'Submariner', '126610LN', 2021]),
        w.__invoke('MIDVALUE', ['SVC-WAT-NEVER-ASKED'], { preview: true }),
      ]);
    }, ASSETS[0])) as CellResult[];
    const previewOfCached = (await p.evaluate((asset) => (window as unknown as { __invoke(id: string, args: unknown[], o?: object): Promise<unknown> }).__invoke('MIDVALUE', [asset], { preview: true }), ASSETS[0])) as CellResult;
    expect(r[0]).toMatchObject({ ok: false, code: '#VALUE!' });
    expect(r[0]!.message).toMatch(/^asset/);
    expect(r[1]).toMatchObject({ ok: false, code: '#VALUE!' });
    expect(r[1]!.message).toMatch(/currency must be one of USD, EUR, GBP/);
    expect(r[2]!.message).toMatch(/horizon must be 12, 24, 36/);
    expect(r[3]!.message).toMatch(/segment must be one of watches, art/);
    expect(r[4]!.message).toMatch(/field must be one of change_7d/);
    expect(r[5]).toMatchObject({ ok: true, value: { type: 'FormattedNumber' } });
    expect(r[6]).toMatchObject({ ok: true, value: { type: 'FormattedNumber' } });
    expect(r[7]).toEqual({ ok: true, value: 'SVC-WAT-ROLEX-126610LN-2021' });
    expect(r[8]).toMatchObject({ ok: false, code: '#N/A' });
    expect(r[8]!.message).toMatch(/preview/);
    expect(previewOfCached).toMatchObject({ ok: true, value: { type: 'FormattedNumber' } });
    await p.close();
  });

  it('streams alerts, spills the factor table and values a holdings range', async () => {
    const p = await page('cf-standin.html');
    await p.waitForFunction(() => 'ALERTS' in (window as unknown as { __associated: object }).__associated);
    const r = (await p.evaluate(async (asset) => {
      const w = window as unknown as { __invoke(id: string, args: unknown[], o?: object): Promise<unknown> };
      return Promise.all([
        w.__invoke('ALERTS', []),
        w.__invoke('FACTORS', [asset, true]),
        w.__invoke('VALUEHOLDINGS', [
          [
            ['segment', 'brand', 'model', 'reference', 'quantity'],
            ['watches', 'Rolex', 'Submariner', '126610LN', 2],
            ['', '', '', '', ''],
            ['boats', 'Riva', 'Aquarama', '', 1],
            ['wine', 'Petrus', 'Pomerol', '', 6],
          ],
        ]),
        w.__invoke('EXPECTEDROI', [asset, 12]),
      ]);
    }, ASSETS[0])) as CellResult[];
    const alerts = r[0]!.value as unknown[][];
    expect(alerts[0]).toEqual(['severity', 'segment', 'title', 'message', 'expires_at']);
    const factors = r[1]!.value as unknown[][];
    expect(factors).toHaveLength(7);
    expect(factors.slice(1).map((f) => f[0])).toEqual(['rarity_edition', 'market_desirability', 'historical_valorisation', 'liquidity_profile', 'institutional_recognition', 'appreciation_potential']);
    const table = r[2]!.value as unknown[][];
    expect(table).toHaveLength(5);
    expect(table[1]![0]).toBe('SVC-WAT-ROLEX-126610LN');
    expect(table[2]).toEqual(['', '', '', '', '', '', '']);
    expect(table[3]![1]).toMatchObject({ code: '#VALUE!' });
    expect((table[3]![1] as { message: string }).message).toMatch(/Row 4, segment/);
    expect(table[4]![0]).toMatch(/^SVC-WIN-PETRUS/);
    expect(r[3]).toMatchObject({ ok: true, value: { type: 'FormattedNumber', numberFormat: '0.0%' } });
    await p.close();
  });
});

describe('deployment key', () => {
  it('is read from the page URL the manifest names and presented on every API call', async () => {
    const keyed = await startAddinHost({
      port: 0,
      insecureHttp: true,
      distDir: dist,
      deploymentKey: 'firm-key-2026',
      service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret },
    });
    try {
      const call = async (url: string) => {
        const p = await browser.newPage();
        await p.goto(url);
        await p.waitForFunction(() => 'MIDVALUE' in (window as unknown as { __associated: object }).__associated);
        const r = (await p.evaluate((asset) => (window as unknown as { __invoke(id: string, args: unknown[]): Promise<unknown> }).__invoke('MIDVALUE', [asset]), ASSETS[1])) as CellResult;
        await p.close();
        return r;
      };
      expect(await call(`${keyed.url}/cf-standin.html?deployment_key=firm-key-2026`)).toMatchObject({ ok: true, value: { type: 'FormattedNumber' } });
      const refused = await call(`${keyed.url}/cf-standin.html`);
      expect(refused).toMatchObject({ ok: false, code: '#N/A' });
      expect(refused.message).toBe('This add-in host requires its deployment key: install the add-in from the manifest your administrator deployed.');
    } finally {
      await keyed.close();
    }
  });
});

describe('task pane in a browser with the Excel object model mocked', () => {
  it('loads office.js from the host with ADDIN_OFFICE_JS=local, and shows the connection even outside Office', async () => {
    const p = await browser.newPage();
    const external: { url: string; type: string }[] = [];
    const failed: string[] = [];
    p.on('request', (r) => {
      if (!r.url().startsWith(stack.host.url)) external.push({ url: r.url(), type: r.resourceType() });
    });
    p.on('requestfailed', (r) => failed.push(r.url()));
    p.on('response', (r) => {
      if (r.status() >= 400) failed.push(r.url());
    });
    await p.goto(`${stack.host.url}/taskpane.html`);
    await expect.poll(() => p.textContent('#status-tier'), { timeout: 10_000 }).toBe('enterprise');
    expect(await p.evaluate(() => typeof (window as unknown as { Office?: { onReady?: unknown } }).Office?.onReady)).toBe('function');
    // office.js itself may try Microsoft's telemetry frame; no script or API call leaves the host.
    expect(external.filter((e) => e.type === 'script' || e.type === 'fetch' || e.type === 'xhr')).toEqual([]);
    expect(failed.filter((u) => u.startsWith(stack.host.url))).toEqual([]);
    await p.close();
  });

  it('shows the connection, values the selected table and writes numbers with formats beside it', async () => {
    const p = await page('taskpane-standin.html');
    await expect.poll(() => p.textContent('#status-tier'), { timeout: 10_000 }).toBe('enterprise');
    expect(await p.textContent('#status-minute')).toMatch(/of 1,000/);
    await p.click('#value-selection');
    await p.waitForFunction(() => /Valued 3 holdings/.test(document.getElementById('message')?.textContent ?? ''), undefined, { timeout: 20_000 });
    const written = (await p.evaluate(() => (window as unknown as { __written: { r: number; c: number; rows: number; cols: number; range: { values: unknown[][]; numberFormat: string[][] } }[] }).__written)).at(-1)!;
    expect(written).toMatchObject({ r: 0, c: 9, rows: 5, cols: 8 });
    const { values, numberFormat } = written.range;
    expect(values[0]).toEqual(['asset_id', 'low', 'mid', 'high', 'currency', 'confidence', 'score', 'status']);
    expect(values[1]![0]).toBe('SVC-WAT-ROLEX-126610LN-2021');
    for (const row of [values[1]!, values[2]!, values[3]!]) {
      expect(typeof row[2]).toBe('number');
      expect(row[1] as number).toBeLessThanOrEqual(row[2] as number);
      expect(row[7]).toBe('valued');
    }
    expect(numberFormat[1]![2]).toBe('[$$-en-US]#,##0');
    expect(numberFormat[1]![5]).toBe('0%');
    expect(values[4]![7]).toMatch(/Row 5, segment: segment must be one of/);
    // Six bottles: the holding is worth six times one bottle.
    const unit = (await p.evaluate(async () => {
      const r = await fetch('/api/v1/valuations/batch', { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-addin': '1' }, body: JSON.stringify({ assets: [{ segment: 'wine', brand: 'Petrus', model: 'Pomerol', year: 2010 }] }) });
      return r.json();
    })) as { valuations: { estimated_value: { mid: number } }[] };
    expect((values[3]![2] as number) / (unit.valuations[0]!.estimated_value.mid * 6)).toBeCloseTo(1, 4);

    // docs/images/taskpane.png is refreshed on request only, so a test run leaves the tree clean.
    const shot = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/images/taskpane.png') : path.join(dist, 'taskpane.png');
    await mkdir(path.dirname(shot), { recursive: true });
    await p.screenshot({ path: shot, fullPage: true });
    expect((await readFile(shot)).subarray(1, 4).toString()).toBe('PNG');
    await p.close();
  });

  it('exports the selected table as a report built by the host', async () => {
    const p = await page('taskpane-standin.html');
    await expect.poll(() => p.textContent('#status-tier'), { timeout: 10_000 }).toBe('enterprise');
    // The picker offers every report format, the web page (issue 38) under its catalogue label.
    const options = await p.$$eval('#report-format option', (os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent })));
    expect(options.map((o) => o.value).sort()).toEqual([...REPORT_FORMATS].sort());
    expect(options.find((o) => o.value === 'html')!.text).toBe(translator('en').t('addin.format_html'));
    await p.selectOption('#report-format', 'json');
    // The pane offers the file by clicking its download link: read what the browser downloads.
    const download = p.waitForEvent('download');
    await p.click('#export-report');
    await p.waitForFunction(() => /Report ready/.test(document.getElementById('message')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await p.textContent('#message')).toMatch(/^Report ready: holdings-\d{4}-\d{2}-\d{2}\.json \(3 holdings, 1 row with problems listed in the report\)\.$/);
    const link = await p.evaluate(() => {
      const a = document.getElementById('report-link') as HTMLAnchorElement;
      return { download: a.download, hidden: a.hidden };
    });
    expect(link).toMatchObject({ hidden: false });
    expect(link.download).toMatch(/\.json$/);
    const file = await (await download).path();
    const report = JSON.parse(await readFile(file, 'utf8')) as { summary: { asset_count: number } };
    expect(report.summary.asset_count).toBe(3);
    await p.close();
  });

  it('inserts the market dashboard on a new sheet', async () => {
    const p = await page('taskpane-standin.html');
    await expect.poll(() => p.textContent('#status-tier'), { timeout: 10_000 }).toBe('enterprise');
    await p.click('#insert-dashboard');
    await p.waitForFunction(() => /Inserted the sheet/.test(document.getElementById('message')?.textContent ?? ''), undefined, { timeout: 20_000 });
    const state = await p.evaluate(() => {
      const w = window as unknown as { __addedSheet: string; __written: { rows: number; cols: number; range: { values: unknown[][] } }[] };
      return { sheet: w.__addedSheet, blocks: w.__written.filter((x) => x.rows > 1 && x.range.values.length > 0).map((x) => x.range.values) };
    });
    expect(state.sheet).toBe('Market dashboard (2)');
    expect(state.blocks).toHaveLength(3);
    expect(state.blocks[0]![0]![0]).toBe('segment');
    expect(state.blocks[0]).toHaveLength(11);
    expect(typeof state.blocks[0]![1]![4]).toBe('number');
    expect(state.blocks[1]![0]).toEqual(['segment', 'brand', 'model', 'change 30d']);
    expect(state.blocks[2]![0]).toEqual(['severity', 'segment', 'title', 'message', 'expires_at']);
    await p.close();
  });
});
