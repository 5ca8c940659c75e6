/**
 * Issue 28: the add-in host's "Export report" draws the PDF and xlsx in the brand the host is
 * configured with (ADDIN_BRAND_FILE), and a brand file that cannot be used stops the host's
 * configuration, naming the key.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostConfigFromEnv } from '../../addin/server/config';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE } from '../../addin/src/shared/host-connection';
import { tempDir } from '../reports/helpers';
import { startStack, type Stack } from '../addin/stack';
import { EXAMPLE_BRAND, FIRM, writeBrand } from './brand-files';

const HOLDINGS = [
  ['asset_id', 'segment', 'brand', 'model', 'reference', 'year', 'quantity', 'purchase_price', 'purchase_date'],
  ['', 'watches', 'Rolex', 'Submariner', '126610LN', 2021, 1, 9500, '2021-06-01'],
  ['', 'watches', 'Patek Philippe', 'Nautilus', '5711/1A', 2019, 1, 60000, '2019-02-01'],
];

let stack: Stack;
beforeAll(async () => {
  const { brand } = hostConfigFromEnv({ ADDIN_BRAND_FILE: EXAMPLE_BRAND });
  stack = await startStack({ host: { brand } });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

async function exportReport(format: 'pdf' | 'xlsx'): Promise<string> {
  const res = await fetch(`${stack.host.url}/addin/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE },
    body: JSON.stringify({ format, grid: HOLDINGS, sheet: 'Okafor Household', first_row: 1, currency: 'USD', portfolio_name: 'Okafor Household' }),
  });
  expect(res.status).toBe(200);
  const file = join(tempDir('svc-brand-addin-'), `report.${format}`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe("the add-in host's report export with ADDIN_BRAND_FILE", () => {
  it('the PDF has the logo on its cover, the firm, its disclosures and the manager', async () => {
    const pdf = await exportReport('pdf');
    expect(execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' })).toMatch(/^\s*1\s+0\s+image\s/m);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain(`PREPARED BY ${FIRM}`);
    expect(text).toContain('Financial Conduct Authority');
    expect(text).toContain('Eleanor Whitcombe');
  });

  it('the workbook has the logo on its Summary sheet and names the firm as its creator', async () => {
    const xlsx = await exportReport('xlsx');
    const script = 'import json, sys, openpyxl\nwb = openpyxl.load_workbook(sys.argv[1])\nprint(json.dumps([len(wb["Summary"]._images), wb.properties.creator]))';
    expect(JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, xlsx], { encoding: 'utf8' }))).toEqual([1, FIRM]);
  });

  it('a brand file that cannot be used is refused at start-up, naming the variable and the key', () => {
    const bad = writeBrand(tempDir('svc-brand-addin-bad-'), { firm_name: 'X', logo_light: 'logo.png' });
    expect(() => hostConfigFromEnv({ ADDIN_BRAND_FILE: bad })).toThrow(/^ADDIN_BRAND_FILE: brand file .*: logo_light: not a brand key/);
  });
});
