import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/client';
import { catalogue, displayModel } from '../../src/sandbox/market/catalogue';
import { loadHoldings } from '../../src/holdings/load';
import { valuationRequest } from '../../src/holdings/requests';
import type { ExitRow, Holding, ProjectionRow, ReportData } from '../../reports/report-data';

/** The parts of a JSON report (reports/writers/json-document.ts) read here. */
type ReportDocument = Pick<ReportData, 'projections' | 'exit_analysis'> & { holdings: Holding[]; audience: 'client' | 'internal'; portfolio: { name: string } };
import { ROOT, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from './helpers';

/**
 * The report job names every holding by the id its valuation answered with (reports/run/answered.ts):
 * the asset_id column, projections, exits, scores and portfolio analytics. An id spelt locally from
 * the descriptors is not the service's for fuzzy descriptions, missing years or aliases (80 of the
 * demo's 300 holdings), and then names another asset.
 */
const AS_OF = '2026-10-31';
const EXAMPLES = ['meridian-wealth-clients.csv', 'hartley-family-office.xlsx', 'ng-collectibles.json'].map((f) => join(ROOT, 'examples', f));

let sb: TestSandbox;
let client: ServiceClient;

beforeAll(async () => {
  sb = await testSandbox();
  client = new ServiceClient({
    baseUrl: sb.url,
    clientId: 'demo-enterprise',
    clientSecret: 'demo-enterprise-secret',
    rateLimitKey: `answered-ids-${sb.url}`,
    headers: { 'x-sandbox-as-of': AS_OF },
  });
});
afterAll(async () => {
  await sb?.close();
});

function jsonReports(dir: string): ReportDocument[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'manifest.json')
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ReportDocument)
    .filter((r) => Array.isArray(r.holdings));
}

describe('svc-report names each holding by its valuation\'s asset_id', () => {
  it('for every holding of the demo files, the asset_id column, projections and exits are the valuation\'s id and confidence', async () => {
    const out = tempDir();
    const run = await runCli(['run', ...EXAMPLES, '--out', out, '--as-of', AS_OF, '--formats', 'json'], serviceEnv(sb));
    expect(run.code, run.stderr).toBe(0);

    // The service's own valuation of every holding, asked independently of the job.
    const { portfolios } = await loadHoldings(EXAMPLES, { asOf: AS_OF });
    const answers = new Map<string, { asset_id: string; confidence: number; mid: number }>();
    for (const p of portfolios) {
      const valued = await client.valueAll(p.holdings.map(valuationRequest), { currency: 'USD' });
      p.holdings.forEach((h, i) => {
        const v = valued[i]!;
        if (!v.ok) throw new Error(`${p.name} row ${h.source.row}: ${v.error.message}`);
        answers.set(`${p.name}#${h.source.row}`, { asset_id: v.value.asset_id, confidence: v.value.confidence, mid: v.value.estimated_value.mid });
      });
    }

    // The client reports (the consolidated one groups rows of several portfolios).
    const reports = jsonReports(out).filter((r) => r.audience === 'client');
    expect(reports.map((r) => r.portfolio.name).sort()).toEqual(portfolios.map((p) => p.name).sort());
    let spelt = 0;
    let enriched = 0;
    for (const report of reports) {
      const portfolio = portfolios.find((p) => p.name === report.portfolio.name)!;
      expect(report.holdings).toHaveLength(portfolio.holdings.length);
      const answer = (row: number) => answers.get(`${portfolio.name}#${row}`)!;
      for (const h of report.holdings as Holding[]) {
        expect(h.asset_id, `${portfolio.name} row ${h.row}`).toBe(answer(h.row).asset_id);
        expect(h.confidence, `${portfolio.name} row ${h.row}`).toBe(answer(h.row).confidence);
        if (portfolio.holdings.find((x) => x.source.row === h.row)!.assetId !== h.asset_id) spelt++;
      }
      expect(report.projections.included && report.exit_analysis.included, `${portfolio.name}: projections and exits included`).toBe(true);
      const projections = (report.projections.included ? report.projections.data : []) as ProjectionRow[];
      const exits = (report.exit_analysis.included ? report.exit_analysis.data : []) as ExitRow[];
      for (const row of [...projections, ...exits]) {
        expect(row.asset_id, `${portfolio.name} row ${row.row}`).toBe(answer(row.row).asset_id);
        expect(row.confidence, `${portfolio.name} row ${row.row}`).toBe(answer(row.row).confidence);
      }
      // The figures shown are the service's for that id: asked again for it (from the value the row starts from), the same ROI and nets.
      for (const row of projections) {
        const a = answer(row.row);
        const p = await client.projections.create({ asset_id: a.asset_id, current_value: row.current_value, horizons: [12, 24, 36], currency: 'USD' });
        expect(p.projection.confidence).toBe(a.confidence);
        // To floating-point noise (7.94 vs 7.940000000000001); another asset's projection is off by tenths.
        expect(row.expected_roi_12m_percent, `${portfolio.name} row ${row.row}`).toBeCloseTo(p.projection.expected_roi['12_months']!, 6);
        expect(row.expected_roi_36m_percent, `${portfolio.name} row ${row.row}`).toBeCloseTo(p.projection.expected_roi['36_months']!, 6);
        enriched++;
      }
      for (const row of exits) {
        const a = answer(row.row);
        const e = await client.exit.analyse({ asset_id: a.asset_id, current_value: row.current_value, urgency: 'flexible', currency: 'USD' });
        expect(e.exit_strategy.confidence).toBe(a.confidence);
        expect(row.hold_12m_roi_percent, `${portfolio.name} row ${row.row}`).toBeCloseTo(e.exit_strategy.alternatives.hold_12_months.projected_roi_percent, 6);
        expect(row.primary_estimated_net / e.exit_strategy.channels.primary.estimated_net, `${portfolio.name} row ${row.row}`).toBeCloseTo(1, 6);
      }
    }
    // The demo has holdings whose locally spelt id is not the service's: the case this test is about.
    expect(spelt).toBeGreaterThan(0);
    expect(enriched).toBeGreaterThan(0);
  }, 240_000);

  it('a csv row given only an asset_id with a size part is valued under that exact id', async () => {
    // An id the sandbox issues for a sized catalogue asset, taken from its answer (not typed).
    const sized = catalogue().assets.filter((a) => a.size);
    const issued = await client.valueAll(sized.map((a) => ({ segment: a.segment, brand: a.brand, model: displayModel(a), reference: a.reference, size: a.size, year: a.year })));
    const ids = issued.flatMap((r) => (r.ok && /-S[0-9A-Z]+(-\d{4})?$/.test(r.value.asset_id) ? [r.value] : []));
    expect(ids.length).toBeGreaterThan(0);
    const target = ids[0]!;

    const dir = tempDir();
    const file = join(dir, 'by-id.csv');
    writeFileSync(file, `asset_id,purchase_price,purchase_date\n${target.asset_id},1000,2020-01-02\n`);
    const run = await runCli(['run', file, '--out', join(dir, 'out'), '--as-of', AS_OF, '--formats', 'json'], serviceEnv(sb));
    expect(run.code, run.stderr).toBe(0);
    const [report] = jsonReports(join(dir, 'out'));
    const byId = await client.valuations.create({ asset_id: target.asset_id, segment: (await loadHoldings([file], { asOf: AS_OF })).portfolios[0]!.holdings[0]!.segment });
    expect(report!.holdings.map((h: Holding) => h.asset_id)).toEqual([target.asset_id]);
    expect(report!.holdings[0]!.current_value).toBeCloseTo(byId.estimated_value.mid, 2);
  }, 120_000);
});
