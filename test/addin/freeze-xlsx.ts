import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { FakeSheet, FakeWorkbookState } from '../../fixtures/fake-excel';

/**
 * Saving the stand-in workbook as a real .xlsx with exceljs, and opening one again. exceljs has
 * no API for custom XML parts, so they are added to the package as Excel itself stores them:
 * customXml/itemN.xml with its itemPropsN.xml, related from the workbook part.
 */

const CUSTOM_XML_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml';
const PROPS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps';
const PROPS_TYPE = 'application/vnd.openxmlformats-officedocument.customXmlProperties+xml';

export async function saveXlsx(state: FakeWorkbookState): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of state.sheets) {
    const ws = wb.addWorksheet(s.name);
    for (const [key, cell] of s.cells) {
      const [r, c] = key.split(',').map(Number) as [number, number];
      const target = ws.getCell(r + 1, c + 1);
      if (cell.formula !== null) target.value = { formula: cell.formula.slice(1), result: typeof cell.value === 'number' ? cell.value : undefined } as ExcelJS.CellFormulaValue;
      else target.value = cell.value as ExcelJS.CellValue;
      if (cell.format !== 'General') target.numFmt = cell.format;
    }
  }
  const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
  const rels = await zip.file('xl/_rels/workbook.xml.rels')!.async('string');
  let types = await zip.file('[Content_Types].xml')!.async('string');
  let extraRels = '';
  state.parts.forEach((p, i) => {
    const n = i + 1;
    zip.file(`customXml/item${n}.xml`, p.xml);
    zip.file(
      `customXml/itemProps${n}.xml`,
      `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<ds:datastoreItem ds:itemID="{6E3D5A1C-0000-4000-8000-00000000000${n}}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs><ds:schemaRef ds:uri="${p.namespace}"/></ds:schemaRefs></ds:datastoreItem>`,
    );
    zip.file(`customXml/_rels/item${n}.xml.rels`, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${PROPS_REL}" Target="itemProps${n}.xml"/></Relationships>`);
    extraRels += `<Relationship Id="rIdCustomXml${n}" Type="${CUSTOM_XML_REL}" Target="../customXml/item${n}.xml"/>`;
    types = types.replace('</Types>', `<Override PartName="/customXml/itemProps${n}.xml" ContentType="${PROPS_TYPE}"/></Types>`);
  });
  if (!/Extension="xml"/.test(types)) types = types.replace('</Types>', '<Default Extension="xml" ContentType="application/xml"/></Types>');
  zip.file('xl/_rels/workbook.xml.rels', rels.replace('</Relationships>', `${extraRels}</Relationships>`));
  zip.file('[Content_Types].xml', types);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Opens a saved workbook as the stand-in's state: cells, formats, and the custom XML parts the workbook relates. */
export async function openXlsx(bytes: Buffer): Promise<FakeWorkbookState> {
  const state = new FakeWorkbookState();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  wb.eachSheet((ws) => {
    const sheet = new FakeSheet(ws.name);
    ws.eachRow({ includeEmpty: false }, (row, r) =>
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const v = cell.value;
        const formula = v !== null && typeof v === 'object' && 'formula' in v ? `=${v.formula}` : null;
        sheet.set(r - 1, c - 1, { formula, value: formula ? (v as ExcelJS.CellFormulaValue).result ?? null : v, format: cell.numFmt ?? 'General' });
      }),
    );
    state.sheets.push(sheet);
  });
  const zip = await JSZip.loadAsync(bytes);
  const rels = await zip.file('xl/_rels/workbook.xml.rels')!.async('string');
  for (const m of rels.matchAll(new RegExp(`Type="${CUSTOM_XML_REL}" Target="\\.\\./(customXml/[^"]+)"`, 'g'))) {
    state.addPart(await zip.file(m[1]!)!.async('string'));
  }
  return state;
}
