/** ISO 4217 codes the runtime knows (Intl's list: every active currency). */
const KNOWN = new Set(Intl.supportedValuesOf('currency'));

export function isCurrencyCode(code: string): boolean {
  return KNOWN.has(code);
}
