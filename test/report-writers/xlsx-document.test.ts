import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeXlsx } from '../../reports/writers/xlsx';
import { makeReportData } from '../../fixtures/report-data';
import { tempDir } from './tools';

const run = promisify(execFile);

/**
 * Read back with openpyxl (Debian's python3-openpyxl, hence /usr/bin/python3) and, for what
 * openpyxl does not load (charts, app.xml), with Python's zipfile and ElementTree.
 */
const READER = String.raw`
import json, sys, zipfile, re
import xml.etree.ElementTree as ET
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb['Holdings']
t = ws.tables['Holdings']
out = {
  'table': {'ref': t.ref, 'header_rows': t.headerRowCount, 'columns': [c.name for c in t.tableColumns]},
  'header_cells': [c.value for c in ws[1]],
  'rows': ws.max_row,
  'print_titles': {name: wb[name].print_title_rows for name in wb.sheetnames},
  'fit': [ws.sheet_properties.pageSetUpPr.fitToPage, ws.page_setup.fitToWidth, ws.page_setup.fitToHeight],
  'header': [ws.oddHeader.left.text, ws.oddHeader.right.text],
  'footer': [ws.oddFooter.left.text, ws.oddFooter.right.text],
  'props': {'title': wb.properties.title, 'subject': wb.properties.subject, 'creator': wb.properties.creator},
}
z = zipfile.ZipFile(sys.argv[1])
app = ET.fromstring(z.read('docProps/app.xml'))
out['company'] = [e.text for e in app if e.tag.endswith('Company')]
out['chart_alt'] = []
for n in sorted(z.namelist()):
  if re.match(r'xl/drawings/drawing\d+\.xml$', n):
    for e in ET.fromstring(z.read(n)).iter():
      if e.tag.endswith('}cNvPr'): out['chart_alt'].append(e.get('descr'))
print(json.dumps(out))
`;

describe('XLSX as a document, read back with openpyxl', () => {
  const data = makeReportData({ holdings: 30 });
  let doc: Record<string, any>;
  beforeAll(async () => {
    const file = path.join(tempDir('xlsx-doc'), 'report.xlsx');
    await writeXlsx(data, file);
    doc = JSON.parse((await run('/usr/bin/python3', ['-c', READER, file])).stdout);
  }, 60_000);

  it('holds the holdings as an Excel table (ListObject) whose header row is the sheet\'s first row', () => {
    expect(doc.table.header_rows).toBe(1);
    expect(doc.table.ref).toMatch(new RegExp(`^A1:[A-Z]+${doc.rows}$`));
    expect(doc.table.columns).toEqual(doc.header_cells);
    expect(doc.rows).toBe(31);
  });

  it('prints fitted to the page width with the header row repeated, client and date in the header, page x of y in the footer', () => {
    expect(doc.fit).toEqual([true, 1, 0]);
    expect(doc.print_titles.Holdings).toBe('$1:$1');
    expect(doc.print_titles.Summary).toBeNull();
    expect(doc.header).toEqual([data.cover.client_name, `Valued as of ${data.cover.as_of}`]);
    expect(doc.footer).toEqual([data.cover.report_id, 'Page &P of &N']);
  });

  it('carries title, subject, author and company', () => {
    expect(doc.props).toEqual({ title: `${data.cover.portfolio_name} — portfolio report ${data.cover.as_of}`, subject: `Valuation report for ${data.cover.client_name}`, creator: data.cover.prepared_by });
    expect(doc.company).toEqual([data.cover.prepared_by]);
  });

  it('gives every chart alternative text that says what it shows', () => {
    expect(doc.chart_alt).toHaveLength(2);
    expect(doc.chart_alt[0]).toMatch(/^Pie chart, Allocation by segment: .+ \d+\.\d %/);
    for (const a of data.allocation) expect(doc.chart_alt[0]).toContain(a.segment_name);
    expect(doc.chart_alt[1]).toMatch(/^Bar chart, .*Portfolio -?\d+\.\d %/);
  });
});
