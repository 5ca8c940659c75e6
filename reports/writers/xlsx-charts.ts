/**
 * Adds native charts to an .xlsx written by exceljs: chart parts, one drawing per sheet with
 * its relationships, the sheet's <drawing r:id> and the content-type overrides. Only the
 * small parts are rewritten; the (possibly large) other sheets are copied still compressed.
 */
import { createWriteStream, promises as fs } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import type { Translator } from '../../src/i18n';
import {
  CT_CHART,
  CT_DRAWING,
  REL_CHART,
  REL_DRAWING,
  chartXml,
  drawingXml,
  relationshipsXml,
  type ChartAnchor,
  type ChartSpec,
  chartAlt,
} from './xlsx-chart-xml';

export interface PlacedChart {
  /** 1-based position of the sheet in the workbook (exceljs writes xl/worksheets/sheet{n}.xml). */
  sheetNumber: number;
  anchor: ChartAnchor;
  spec: ChartSpec;
}

/** Elements that must follow <drawing> in a worksheet (ECMA-376 CT_Worksheet order). */
const AFTER_DRAWING = ['<legacyDrawing', '<legacyDrawingHF', '<drawingHF', '<picture', '<oleObjects', '<controls', '<webPublishItems', '<tableParts', '<extLst', '</worksheet>'];

/** The sheet's XML with a <drawing r:id> in its place; a sheet has one drawing at most. */
export function insertDrawing(sheetXml: string, relId: string): string {
  if (sheetXml.includes('<drawing ')) throw new Error('internal: the sheet already has a drawing');
  const at = Math.min(...AFTER_DRAWING.map((tag) => sheetXml.indexOf(tag)).filter((i) => i >= 0));
  if (!Number.isFinite(at)) throw new Error('internal: the worksheet XML has no closing tag');
  return `${sheetXml.slice(0, at)}<drawing r:id="${relId}"/>${sheetXml.slice(at)}`;
}

function parseRelationships(xml: string): { id: string; type: string; target: string }[] {
  return [...xml.matchAll(/<Relationship\b([^>]*)\/>/g)].map((m) => {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1]!)?.[1] ?? '';
    return { id: attr('Id'), type: attr('Type'), target: attr('Target') };
  });
}

function addOverrides(contentTypes: string, parts: { partName: string; contentType: string }[]): string {
  const overrides = parts.map((p) => `<Override PartName="${p.partName}" ContentType="${p.contentType}"/>`).join('');
  return contentTypes.replace('</Types>', `${overrides}</Types>`);
}

/** `finish` makes any other change to the package before it is written (xlsx-package.ts); `tr` is the alternative texts' language. */
export async function addChartsToXlsx(inputPath: string, outputPath: string, charts: PlacedChart[], finish?: (zip: JSZip) => Promise<void>, tr?: Translator): Promise<void> {
  const zip = await JSZip.loadAsync(await fs.readFile(inputPath));
  const overrides: { partName: string; contentType: string }[] = [];
  const bySheet = new Map<number, PlacedChart[]>();
  for (const c of charts) bySheet.set(c.sheetNumber, [...(bySheet.get(c.sheetNumber) ?? []), c]);

  let chartNumber = 0;
  let drawingNumber = 0;
  for (const [sheetNumber, placed] of bySheet) {
    drawingNumber++;
    const sheetPath = `xl/worksheets/sheet${sheetNumber}.xml`;
    const sheetFile = zip.file(sheetPath);
    if (!sheetFile) throw new Error(`internal: ${sheetPath} is missing from the workbook`);

    // drawingXml numbers the frames of a drawing rId1, rId2, … in this order.
    const chartRels = placed.map((p, k) => {
      chartNumber++;
      zip.file(`xl/charts/chart${chartNumber}.xml`, chartXml(p.spec));
      overrides.push({ partName: `/xl/charts/chart${chartNumber}.xml`, contentType: CT_CHART });
      return { id: `rId${k + 1}`, type: REL_CHART, target: `../charts/chart${chartNumber}.xml` };
    });
    // Each chart's frame carries its alternative text (what it shows), for screen readers.
    zip.file(`xl/drawings/drawing${drawingNumber}.xml`, drawingXml(placed.map((p) => ({ ...p.anchor, alt: chartAlt(p.spec, tr) }))));
    zip.file(`xl/drawings/_rels/drawing${drawingNumber}.xml.rels`, relationshipsXml(chartRels));
    overrides.push({ partName: `/xl/drawings/drawing${drawingNumber}.xml`, contentType: CT_DRAWING });

    const relsPath = `xl/worksheets/_rels/sheet${sheetNumber}.xml.rels`;
    const existing = zip.file(relsPath) ? parseRelationships(await zip.file(relsPath)!.async('string')) : [];
    const drawingRelId = `rIdChartDrawing${drawingNumber}`;
    zip.file(relsPath, relationshipsXml([...existing, { id: drawingRelId, type: REL_DRAWING, target: `../drawings/drawing${drawingNumber}.xml` }]));
    zip.file(sheetPath, insertDrawing(await sheetFile.async('string'), drawingRelId));
  }

  const contentTypes = zip.file('[Content_Types].xml');
  if (!contentTypes) throw new Error('internal: [Content_Types].xml is missing from the workbook');
  zip.file('[Content_Types].xml', addOverrides(await contentTypes.async('string'), overrides));
  if (finish) await finish(zip);

  await pipeline(
    zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE', compressionOptions: { level: 6 } }),
    createWriteStream(outputPath),
  );
}
