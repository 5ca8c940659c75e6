import { segmentById } from '../../src/wire';

/**
 * Enum values as people read them in the xlsx and the PDF: "sell_now" → "Sell now",
 * "monitor_closely" → "Monitor closely", "real_estate" → "Real Estate" (the segment's own name).
 * CSV and JSON keep the codes: they are read by programs, and the schema documents them.
 */
export function readable(code: string): string {
  if (code === '') return code;
  const words = code.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function segmentLabel(id: string): string {
  return segmentById(id)?.name ?? readable(id);
}
