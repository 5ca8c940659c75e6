/**
 * Text for the signature's visible seal, in a font embedded in the appearance itself: a subset of
 * the report's own DejaVu Sans Condensed (only the glyphs the seal uses) as a Type 0 font with
 * Identity-H encoding, its widths and a ToUnicode map, which is what PDF/A asks of every font
 * (embedded, widths consistent, text extractable) and what pdfkit writes for the report's body.
 * Written by hand because the seal is added as an incremental update, outside pdfkit.
 */
import { deflateSync } from 'node:zlib';
import type { Font, Glyph } from 'fontkit';
import { houseFont } from '../../writers/pdf-fonts';

/** One line of the seal's text, already laid out in the font's glyphs. */
export interface SealLine {
  glyphs: Glyph[];
  /** Its width in text space units (1/1000 of the font size). */
  width: number;
}

export interface SealFont {
  /** Lays out a line (and adds its glyphs to the subset). */
  line(text: string): SealLine;
  /** The line's glyphs as the hex string a Tj shows (two bytes per glyph: the subset's ids). */
  show(line: SealLine): string;
  /** The font's objects, numbered from `first`; the Type 0 font is `first`. */
  objects(first: number): Map<number, string>;
  /** How many objects objects() writes. */
  readonly objectCount: number;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();

/** A fresh subset of the house sans font for one seal. */
export function sealFont(): SealFont {
  const font = houseFont('sans') as Font;
  const scale = 1000 / font.unitsPerEm;
  const subset = font.createSubset() as unknown as { includeGlyph(id: number): number; encode(): Uint8Array };
  // Subset id -> [width, code points]; id 0 is .notdef.
  const used = new Map<number, { width: number; codePoints: number[] }>([[0, { width: Math.round(font.getGlyph(0).advanceWidth * scale), codePoints: [] }]]);
  const idOf = new Map<number, number>();
  const include = (g: Glyph) => {
    let id = idOf.get(g.id);
    if (id === undefined) {
      id = subset.includeGlyph(g.id);
      idOf.set(g.id, id);
      used.set(id, { width: Math.round(g.advanceWidth * scale), codePoints: g.codePoints });
    }
    return id;
  };
  return {
    objectCount: 5,
    line(text) {
      const { glyphs } = font.layout(text);
      for (const g of glyphs) include(g);
      return { glyphs, width: glyphs.reduce((sum, g) => sum + Math.round(g.advanceWidth * scale), 0) };
    },
    show(line) {
      return `<${line.glyphs.map((g) => hex4(include(g))).join('')}>`;
    },
    objects(first) {
      const [type0, cidFont, descriptor, file, toUnicode] = [first, first + 1, first + 2, first + 3, first + 4];
      // A subset's name starts with six capitals and "+" (ISO 32000-1, 9.6.4).
      const name = `SVCSEA+${font.postscriptName.replace(/[^A-Za-z0-9-]/g, '_')}`;
      const bytes = Buffer.from(subset.encode());
      const packed = deflateSync(bytes);
      const ids = [...used.keys()].sort((a, b) => a - b);
      const widths = ids.map((id) => `${id} [${used.get(id)!.width}]`).join(' ');
      const bbox = font.bbox;
      const cmap = toUnicodeCmap(ids.filter((id) => used.get(id)!.codePoints.length > 0).map((id) => [id, used.get(id)!.codePoints]));
      return new Map<number, string>([
        [type0, `<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${toUnicode} 0 R >>`],
        [cidFont, `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /CIDToGIDMap /Identity /DW 1000 /W [${widths}] >>`],
        [
          descriptor,
          `<< /Type /FontDescriptor /FontName /${name} /Flags 4 /FontBBox [${[bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => Math.round(v * scale)).join(' ')}] /ItalicAngle ${font.italicAngle} /Ascent ${Math.round(font.ascent * scale)} /Descent ${Math.round(font.descent * scale)} /CapHeight ${Math.round((font.capHeight || font.ascent) * scale)} /XHeight ${Math.round((font.xHeight || 0) * scale)} /StemV 80 /FontFile2 ${file} 0 R >>`,
        ],
        [file, `<< /Length ${packed.length} /Length1 ${bytes.length} /Filter /FlateDecode >>\nstream\n${packed.toString('latin1')}\nendstream`],
        [toUnicode, `<< /Length ${Buffer.byteLength(cmap, 'latin1')} >>\nstream\n${cmap}\nendstream`],
      ]);
    },
  };
}

/** The ToUnicode CMap: each subset id to the code points its glyph stands for (UTF-16BE). */
function toUnicodeCmap(entries: [number, number[]][]): string {
  const utf16 = (cps: number[]) => Buffer.from(String.fromCodePoint(...cps), 'utf16le').swap16().toString('hex').toUpperCase();
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    lines.push(`${chunk.length} beginbfchar`, ...chunk.map(([id, cps]) => `<${hex4(id)}> <${utf16(cps)}>`), 'endbfchar');
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...lines,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}
