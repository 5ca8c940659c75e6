/**
 * Adds an empty PAdES signature to a report PDF as an incremental update (the report's bytes stay
 * as written, so its PDF/A-3a and PDF/UA-1 structure is kept): a signature field on the cover
 * page whose widget is visible (a framed seal naming the signer, the approver and the signing
 * time, in a subset of the report's own font embedded in the appearance, seal-font.ts; the Print
 * flag set, as PDF/A requires), described by /TU and tagged for PDF/UA as a Form structure
 * element in the document's tree (the widget's /StructParent in the ParentTree). Its /V is a
 * signature dictionary (ETSI.CAdES.detached, reason, location, /M) with the ByteRange and Contents
 * placeholders @signpdf/signpdf fills.
 */
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { sealFont, type SealFont } from './seal-font';
import { appendToArray, incrementalUpdate, objectBody, PdfStructureError, readPdf, refOf, withEntries } from './pdf-objects';

/** Bytes reserved for the CMS (certificates, signature, a timestamp token with its own chain). */
export const SIGNATURE_BYTES = 16_384;

export interface SignatureFieldOptions {
  /** Who approved (the reviewer), as the field's description and the seal show it. */
  name: string;
  /** The signing certificate's subject ("CN=…, O=…"): the seal shows its common name. */
  signer?: string;
  reason: string;
  location: string;
  /** The signing time (the signature dictionary's /M). */
  at: Date;
}

/** A PDF text string: ASCII as a literal, anything else as UTF-16BE hex. */
export function pdfString(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const utf16 = Buffer.from(s, 'utf16le').swap16();
  return `<FEFF${utf16.toString('hex').toUpperCase()}>`;
}

const pdfDate = (d: Date) => `D:${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/** Where the widget sits on the cover: above the confidentiality line, left margin (points from bottom left). */
const RECT = [60, 135, 300, 195] as const;

/** The seal's text lines: who signed (the certificate's name), who approved, when. */
export function sealLines(o: SignatureFieldOptions): string[] {
  const cn = o.signer ? /(?:^|,\s*)CN=([^,]+)/.exec(o.signer)?.[1]?.trim() : undefined;
  const when = `${o.at.toISOString().slice(0, 10)} ${o.at.toISOString().slice(11, 16)} UTC`;
  return [`Digitally signed by ${cn ?? o.name}`, ...(cn ? [`Approved by ${o.name}`] : []), `Date: ${when}`];
}

/** The seal's text size at most, and at least (a longer line is set smaller to fit the frame). */
const TEXT_SIZE = 8;
const MIN_TEXT_SIZE = 4;

/** A framed seal with a tick and the seal's lines in the embedded font (/F1). */
function appearance(lines: readonly string[], font: SealFont): string {
  const [x1, y1, x2, y2] = RECT;
  const w = x2 - x1;
  const h = y2 - y1;
  const textLeft = h + 4;
  const room = w - textLeft - 6;
  const laid = lines.map((l) => font.line(l));
  const size = Math.max(MIN_TEXT_SIZE, Math.min(TEXT_SIZE, ...laid.map((l) => (room * 1000) / Math.max(1, l.width))));
  const leading = size * 1.35;
  const top = h / 2 + ((laid.length - 1) * leading) / 2 - size * 0.35;
  const text = laid.map((l, i) => `BT /F1 ${size.toFixed(2)} Tf ${textLeft} ${(top - i * leading).toFixed(2)} Td ${font.show(l)} Tj ET`);
  const ops = [
    'q 0.11 0.16 0.29 RG 1.2 w',
    `1 1 ${w - 2} ${h - 2} re S`,
    ring(h / 2, h / 2, h / 2 - 10),
    `${h / 2 - 9} ${h / 2} m ${h / 2 - 3} ${h / 2 - 7} l ${h / 2 + 10} ${h / 2 + 8} l S`,
    '0.11 0.16 0.29 rg',
    ...text,
    'Q',
  ];
  return ops.join('\n');
}

/** A circle as four Bézier curves, stroked. */
function ring(cx: number, cy: number, r: number): string {
  const k = 0.5523 * r;
  const f = (n: number) => n.toFixed(2);
  return [
    `${f(cx + r)} ${f(cy)} m`,
    `${f(cx + r)} ${f(cy + k)} ${f(cx + k)} ${f(cy + r)} ${f(cx)} ${f(cy + r)} c`,
    `${f(cx - k)} ${f(cy + r)} ${f(cx - r)} ${f(cy + k)} ${f(cx - r)} ${f(cy)} c`,
    `${f(cx - r)} ${f(cy - k)} ${f(cx - k)} ${f(cy - r)} ${f(cx)} ${f(cy - r)} c`,
    `${f(cx + k)} ${f(cy - r)} ${f(cx + r)} ${f(cy - k)} ${f(cx + r)} ${f(cy)} c S`,
  ].join('\n');
}

/** The PDF with an empty signature (placeholders) appended as an incremental update. */
export function withSignatureField(bytes: Buffer, o: SignatureFieldOptions): Buffer {
  const pdf = readPdf(bytes);
  const rootNum = refOf(pdf.trailer, 'Root');
  if (rootNum === undefined) throw new PdfStructureError('the trailer has no /Root');
  const catalog = objectBody(pdf, rootNum);
  if (/\/AcroForm/.test(catalog)) throw new PdfStructureError('the PDF already has a form (signed before?)');
  const pagesNum = refOf(catalog, 'Pages')!;
  const firstPage = Number(/\/Kids\s*\[\s*(\d+)\s+0\s+R/.exec(objectBody(pdf, pagesNum))?.[1]);
  const page = objectBody(pdf, firstPage);
  if (!/\/Type\s*\/Page\b/.test(page)) throw new PdfStructureError('the first page is in a nested page tree');
  if (/\/Annots/.test(page)) throw new PdfStructureError('the cover page already has annotations');
  const treeNum = refOf(catalog, 'StructTreeRoot');
  if (treeNum === undefined) throw new PdfStructureError('the PDF is not tagged (no structure tree)');
  const tree = objectBody(pdf, treeNum);
  const nextKey = Number(/\/ParentTreeNextKey\s+(\d+)/.exec(tree)?.[1]);
  if (!Number.isInteger(nextKey) || !/\/ParentTree\s*<</.test(tree)) throw new PdfStructureError('the structure tree has no inline ParentTree with a ParentTreeNextKey');
  const documentNum = Number(/\/K\s*\[?\s*(\d+)\s+0\s+R/.exec(tree)?.[1]);
  const documentElement = objectBody(pdf, documentNum);

  let next = pdf.size;
  const sigNum = next++;
  const widgetNum = next++;
  const apNum = next++;
  const formNum = next++;
  const font = sealFont();
  const ap = appearance(sealLines(o), font);
  const fontNum = next;
  next += font.objectCount;
  const [x1, y1, x2, y2] = RECT;
  const description = `Digital signature of ${o.name}: ${o.reason}`;
  const objects = new Map<number, string>([
    [
      sigNum,
      [
        '<<',
        '/Type /Sig',
        '/Filter /Adobe.PPKLite',
        `/SubFilter /${SUBFILTER_ETSI_CADES_DETACHED}`,
        `/ByteRange [0 /${DEFAULT_BYTE_RANGE_PLACEHOLDER} /${DEFAULT_BYTE_RANGE_PLACEHOLDER} /${DEFAULT_BYTE_RANGE_PLACEHOLDER}]`,
        `/Contents <${'0'.repeat(SIGNATURE_BYTES * 2)}>`,
        `/Reason ${pdfString(o.reason)}`,
        `/Location ${pdfString(o.location)}`,
        `/M (${pdfDate(o.at)})`,
        '>>',
      ].join('\n'),
    ],
    [
      widgetNum,
      [
        '<<',
        '/Type /Annot',
        '/Subtype /Widget',
        '/FT /Sig',
        '/T (Approval signature)',
        `/TU ${pdfString(description)}`,
        `/Contents ${pdfString(description)}`,
        `/V ${sigNum} 0 R`,
        `/P ${firstPage} 0 R`,
        `/Rect [${x1} ${y1} ${x2} ${y2}]`,
        '/F 132', // Print (4) + Locked (128): printed, as PDF/A requires; not movable
        `/StructParent ${nextKey}`,
        `/AP << /N ${apNum} 0 R >>`,
        '>>',
      ].join('\n'),
    ],
    [apNum, `<<\n/Type /XObject\n/Subtype /Form\n/BBox [0 0 ${x2 - x1} ${y2 - y1}]\n/Resources << /Font << /F1 ${fontNum} 0 R >> >>\n/Length ${Buffer.byteLength(ap, 'latin1')}\n>>\nstream\n${ap}\nendstream`],
    ...font.objects(fontNum),
    [formNum, `<<\n/Type /StructElem\n/S /Form\n/P ${documentNum} 0 R\n/Pg ${firstPage} 0 R\n/Alt ${pdfString(description)}\n/K << /Type /OBJR /Obj ${widgetNum} 0 R /Pg ${firstPage} 0 R >>\n>>`],
    [rootNum, withEntries(catalog, `/AcroForm << /Fields [${widgetNum} 0 R] /SigFlags 3 >>`)],
    [firstPage, withEntries(page, `/Annots [${widgetNum} 0 R]`)],
    [documentNum, appendToArray(documentElement, 'K', `${formNum} 0 R`)],
    [
      treeNum,
      appendToArray(tree, 'Nums', `${nextKey} ${formNum} 0 R`)
        .replace(/\/ParentTreeNextKey\s+\d+/, `/ParentTreeNextKey ${nextKey + 1}`)
        .replace(/\/Limits\s*\[\s*(\d+)\s+\d+\s*\]/, `/Limits [$1 ${nextKey}]`),
    ],
  ]);
  return incrementalUpdate(pdf, objects, next);
}
