import { DASHBOARD_SCHEMA_VERSION, type DashboardData } from '../report-data';
import { streamTextFile } from './chunked-writer';

/** The market dashboard as versioned JSON (reports/schema/market-dashboard.schema.json). Small: written in one piece. */
export async function writeDashboardJson(data: DashboardData, filePath: string): Promise<void> {
  // The brand draws the PDF and xlsx; it is not dashboard data (and its images are bytes).
  const { brand: _brand, ...fields } = data;
  const doc = { schema_version: DASHBOARD_SCHEMA_VERSION, ...fields };
  await streamTextFile(filePath, async (out) => {
    await out.text(JSON.stringify(doc, null, 2) + '\n');
  });
}
