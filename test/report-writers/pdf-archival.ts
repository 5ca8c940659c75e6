import { expect } from 'vitest';
import type { PdfStructure } from './pdf-structure';

/** The checks every report PDF passes: PDF/A-3a + PDF/UA-1 identification, complete tagging. */
/** `figureAlt`: what a chart's alternative text reads like (English's "…, bar chart: …" by default; a translated report's in its language). */
/** `minTaggedText`: how many tagged text runs at least (a report has well over 50; a one-page document fewer). */
export function expectArchivalAndTagged(s: PdfStructure, lang: string, options: { logoAlt?: string; figureAlt?: RegExp; minTaggedText?: number } = {}): void {
  expect(s.markedTrue).toBe(true);
  expect(s.lang).toBe(lang);
  expect(s.displayDocTitle).toBe(true);
  expect(s.xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
  expect(s.xmp).toMatch(/<pdfaid:conformance>A<\/pdfaid:conformance>/);
  expect(s.xmp).toMatch(/<pdfuaid:part>1<\/pdfuaid:part>/);
  expect(s.xmp).toMatch(/<pdfaSchema:prefix>pdfuaid<\/pdfaSchema:prefix>/);
  expect(s.tree.map((n) => n.type)).toEqual(['Document']);
  // Every text run and every painted shape is tagged content or an artifact.
  expect(s.taggedText).toBeGreaterThan(options.minTaggedText ?? 50);
  expect(s.untaggedText).toBe(0);
  expect(s.untaggedPaint).toBe(0);
  expect(s.orphanMcids).toEqual([]);
  // Charts say what they show; a firm's logo (issue 28) is named by the firm's name.
  for (const f of s.elements.filter((e) => e.type === 'Figure')) {
    if (options.logoAlt !== undefined && f.alt === options.logoAlt) continue;
    expect(f.alt ?? '').toMatch(options.figureAlt ?? /chart: .{20,}/);
  }
  const headerCells = s.elements.filter((e) => e.type === 'TH');
  expect(headerCells.length).toBeGreaterThan(0);
  for (const th of headerCells) expect(['Column', 'Row']).toContain(th.scope);
}
