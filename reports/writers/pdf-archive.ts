/**
 * What makes a report PDF a document of record: PDF/A-3 (level A, "accessible") and PDF/UA-1 at
 * once. pdfkit supports one `subset` per document, so the PDF/A part is pdfkit's own
 * (`subset: 'PDF/A-3a'`: sRGB output intent, pdfaid in the XMP) and the PDF/UA identification
 * is added here, with the PDF/A extension schema that PDF/A requires for a namespace it does not
 * predefine. PDF/A-3 rather than -2 because the report embeds its own data (JSON, CSV) as
 * associated files, which PDF/A-2 does not allow.
 */
import type { PackedFile } from './pdf-embedded-file';
import { xmlEscape } from './xml-escape';

/** pdfkit document options shared by every report PDF. */
export const ARCHIVAL_OPTIONS = {
  subset: 'PDF/A-3a',
  pdfVersion: '1.7',
  tagged: true,
  displayTitle: true,
} as const;

const PDFUA_XMP = `
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
  <pdfaExtension:schemas>
    <rdf:Bag>
      <rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
        <pdfaSchema:property>
          <rdf:Seq>
            <rdf:li rdf:parseType="Resource">
              <pdfaProperty:name>part</pdfaProperty:name>
              <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
              <pdfaProperty:category>internal</pdfaProperty:category>
              <pdfaProperty:description>Indicates which part of ISO 14289 (PDF/UA) the file conforms to</pdfaProperty:description>
            </rdf:li>
          </rdf:Seq>
        </pdfaSchema:property>
      </rdf:li>
    </rdf:Bag>
  </pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">
  <pdfuaid:part>1</pdfuaid:part>
</rdf:Description>`;

interface MetadataInternals {
  info: Record<string, unknown>;
  endMetadata: () => void;
  appendXML: (xml: string) => void;
}

/**
 * Adds the PDF/UA-1 identification to the XMP, and makes pdfkit's XMP well-formed for any title:
 * pdfkit copies the document info into the XMP without escaping, so a client called
 * "Smith & Sons" would break the metadata. The info dictionary is written (unescaped, as it
 * must be) before the XMP, so the values are escaped only for the XMP.
 */
export function declareConformance(doc: PDFKit.PDFDocument): void {
  const d = doc as unknown as MetadataInternals;
  d.appendXML(PDFUA_XMP);
  const endMetadata = d.endMetadata.bind(doc);
  d.endMetadata = () => {
    for (const [k, v] of Object.entries(d.info)) if (typeof v === 'string') d.info[k] = xmlEscape(v);
    endMetadata();
  };
}

export interface Attachment {
  /** File name shown in a reader's attachments panel, e.g. "smith-2026-10-31.json". */
  name: string;
  /** MIME type, e.g. "application/json". */
  type: string;
  description: string;
  /** The file's bytes, already deflated, with their size and checksum (pdf-embedded-file.ts). */
  data: PackedFile;
}

/** pdfkit's internals used here: its object references and the catalog's embedded-files name tree. */
interface EmbeddingInternals {
  ref(data: Record<string, unknown>): { write(chunk: Uint8Array): void; end(): void };
  addNamedEmbeddedFile(name: string, ref: unknown): void;
  _root: { data: { AF?: unknown[] } };
}

/**
 * Embeds `a` as a PDF/A-3 associated file of the document (catalog /AF, relationship /Data:
 * the data the document is a rendering of), dated `date` so the file stays reproducible. The
 * objects are those pdfkit's `file()` writes, but from bytes deflated beforehand: `file()`
 * takes the raw bytes whole and copies them twice more before compressing.
 */
export function attach(doc: PDFKit.PDFDocument, a: Attachment, date: Date): void {
  const d = doc as unknown as EmbeddingInternals;
  const body = d.ref({
    Type: 'EmbeddedFile',
    Subtype: escapeName(a.type),
    // A /Filter given up front tells pdfkit the stream is already encoded (it compresses nothing).
    Filter: 'FlateDecode',
    Params: { CreationDate: date, ModDate: date, CheckSum: new String(a.data.md5), Size: a.data.size },
  });
  body.write(a.data.deflated);
  body.end();
  const filespec = d.ref({
    Type: 'Filespec',
    AFRelationship: 'Data',
    F: new String(a.name),
    EF: { F: body },
    UF: new String(a.name),
    Desc: new String(a.description),
  });
  filespec.end();
  d.addNamedEmbeddedFile(a.name, filespec);
  (d._root.data.AF ??= []).push(filespec);
}

/** A PDF name as pdfkit escapes a MIME type ("application/json" → "application#2Fjson"). */
function escapeName(name: string): string {
  return name.replace(/[\x00-\x20\x7f#%()/<>[\]{}]/g, (c) => `#${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
