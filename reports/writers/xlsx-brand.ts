/**
 * A firm's brand in a workbook (issue 28): the document properties naming the firm (creator,
 * company), and its logo as a picture on a sheet. exceljs's streaming writer cannot place
 * images, so the picture (a drawing, its relationship and the PNG) is added to the package
 * afterwards, as the charts are (xlsx-charts.ts).
 */
import type JSZip from 'jszip';
import type { Brand, LogoImage } from '../../src/brand';
import { CT_DRAWING, NS_A, NS_R, NS_XDR, REL_DRAWING, relationshipsXml } from './xlsx-chart-xml';
import { xmlEscape } from './xml-escape';
import { insertDrawing } from './xlsx-charts';

export interface PlacedPicture {
  /** 1-based sheet number; the sheet must have no other drawing (no chart). */
  sheetNumber: number;
  /** Zero-based top-left cell. */
  col: number;
  row: number;
  /** Height in points; the width follows the image's proportions. */
  heightPt: number;
  image: LogoImage;
  /** Alternative text (the firm's name). */
  alt: string;
}

const REL_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const EMU_PER_PT = 12_700;

/** The workbook's properties name the firm (creator, last modified by, company) when there is a brand. */
export function brandedBookMeta<T extends { creator: string; company?: string; brand?: Brand }>(meta: T, brand: Brand | undefined): T {
  if (!brand) return meta;
  return { ...meta, creator: brand.firmName, company: brand.firmName, brand };
}

function pictureDrawingXml(p: PlacedPicture): string {
  const cy = Math.round(p.heightPt * EMU_PER_PT);
  const cx = Math.round((cy * p.image.width) / p.image.height);
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${NS_XDR}" xmlns:a="${NS_A}">` +
    `<xdr:oneCellAnchor><xdr:from><xdr:col>${p.col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${p.row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="${cx}" cy="${cy}"/>` +
    `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="2" name="Logo" descr="${xmlEscape(p.alt)}" title="${xmlEscape(p.alt)}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
    `<xdr:blipFill><a:blip xmlns:r="${NS_R}" r:embed="rId1"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
    `<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic>` +
    `<xdr:clientData/></xdr:oneCellAnchor></xdr:wsDr>`
  );
}

/** Adds each picture to its sheet: the PNG under xl/media, a drawing holding it, the sheet's link to the drawing. */
export async function addPictures(zip: JSZip, pictures: readonly PlacedPicture[]): Promise<void> {
  for (const [k, p] of pictures.entries()) {
    const n = k + 1;
    const sheetPath = `xl/worksheets/sheet${p.sheetNumber}.xml`;
    const sheetXml = await zip.file(sheetPath)?.async('string');
    if (sheetXml === undefined) throw new Error(`internal: ${sheetPath} is missing from the workbook`);
    zip.file(`xl/media/brand-logo${n}.png`, p.image.png);
    zip.file(`xl/drawings/brand-drawing${n}.xml`, pictureDrawingXml(p));
    zip.file(`xl/drawings/_rels/brand-drawing${n}.xml.rels`, relationshipsXml([{ id: 'rId1', type: REL_IMAGE, target: `../media/brand-logo${n}.png` }]));
    const relsPath = `xl/worksheets/_rels/sheet${p.sheetNumber}.xml.rels`;
    const rels = await zip.file(relsPath)?.async('string');
    const relId = `rIdBrandDrawing${n}`;
    const rel = `<Relationship Id="${relId}" Type="${REL_DRAWING}" Target="../drawings/brand-drawing${n}.xml"/>`;
    zip.file(relsPath, rels ? rels.replace('</Relationships>', `${rel}</Relationships>`) : relationshipsXml([{ id: relId, type: REL_DRAWING, target: `../drawings/brand-drawing${n}.xml` }]));
    zip.file(sheetPath, insertDrawing(sheetXml, relId));
    let types = (await zip.file('[Content_Types].xml')!.async('string')).replace('</Types>', `<Override PartName="/xl/drawings/brand-drawing${n}.xml" ContentType="${CT_DRAWING}"/></Types>`);
    if (!/<Default Extension="png"/i.test(types)) types = types.replace('</Types>', '<Default Extension="png" ContentType="image/png"/></Types>');
    zip.file('[Content_Types].xml', types);
  }
}
