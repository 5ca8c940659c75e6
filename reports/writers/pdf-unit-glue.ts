/**
 * Numbers never part from their unit in the PDF: "+1690.9 %" must not wrap before its "%", nor
 * "98.7" away from "% of the portfolio", nor "CHF" from its amount. The space between them is
 * drawn as a no-break space (U+00A0), which pdfkit's line breaking (Unicode UAX #14) never
 * breaks at, and which looks the same. Only the PDF is glued: the xlsx, CSV and JSON keep plain
 * spaces, as programs and the spreadsheet's own wrapping read them.
 */
const NBSP = '\u00a0';
/** A digit, then the space before a percent sign or a points unit. */
const NUMBER_UNIT = /(\d) (?=%|pts\b|points?\b)/g;
/** A currency code, then the space before its amount ("CHF 36,822,846", "CHF −1,200"). */
const CODE_AMOUNT = /\b([A-Z]{3}) (?=[−+-]?\d)/g;

export function glueUnits(text: string): string {
  return text.replace(NUMBER_UNIT, `$1${NBSP}`).replace(CODE_AMOUNT, `$1${NBSP}`);
}

type Method = (this: PDFKit.PDFDocument, value: unknown, ...rest: unknown[]) => unknown;

/** Teaches one document to glue every string it draws or measures (measured as drawn, so layout stays right). */
export function keepUnitsTogether(doc: PDFKit.PDFDocument): void {
  const target = doc as unknown as Record<'text' | 'widthOfString' | 'heightOfString', Method>;
  for (const name of ['text', 'widthOfString', 'heightOfString'] as const) {
    const original = target[name].bind(doc) as (...args: unknown[]) => unknown;
    target[name] = function glued(value: unknown, ...rest: unknown[]) {
      return original(typeof value === 'string' ? glueUnits(value) : value, ...rest);
    };
  }
}
