/**
 * The signature field as an incremental update, on a report the PDF writer produces: the written
 * bytes stay a prefix of the signed file, qpdf reads both revisions, and a PDF our reader cannot
 * update safely (object and cross-reference streams, or one signed already) is refused by name.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeReportData } from '../../fixtures/report-data';
import { writePdf } from '../../reports/writers/pdf';
import { withSignatureField } from '../../reports/signoff/sign/signature-field';
import { PdfStructureError } from '../../reports/signoff/sign/pdf-objects';
import { tempDir } from '../reports/helpers';

const run = promisify(execFile);
const at = new Date('2026-11-01T09:00:00Z');
const field = { name: 'Ann Reviewer <ann@meridian.example>', reason: 'Approved for the client', location: 'Genève', at };

describe('the signature field', () => {
  const dir = tempDir('signature-field-');
  const file = path.join(dir, 'client-2026-10-31.pdf');
  let original: Buffer;
  let placeheld: Buffer;

  beforeAll(async () => {
    await writePdf(makeReportData({ holdings: 12 }), file);
    original = readFileSync(file);
    placeheld = withSignatureField(original, field);
  }, 120_000);

  it('is appended: the report as written is a prefix of the result, which qpdf reads without error', async () => {
    expect(placeheld.subarray(0, original.length).equals(original)).toBe(true);
    expect(placeheld.length).toBeGreaterThan(original.length + 32_768);
    const out = path.join(dir, 'placeheld.pdf');
    await import('node:fs/promises').then((fs) => fs.writeFile(out, placeheld));
    expect((await run('qpdf', ['--check', out])).stdout).toMatch(/No syntax or stream encoding errors found/);
    const tail = placeheld.subarray(original.length).toString('latin1');
    expect(tail).toMatch(/\/SubFilter \/ETSI\.CAdES\.detached/);
    // A location outside ASCII is written as UTF-16BE with its byte order mark.
    expect(tail).toContain(`/Location <FEFF${Buffer.from('Genève', 'utf16le').swap16().toString('hex').toUpperCase()}>`);
    expect(tail).toMatch(/\/Prev \d+/);
  });

  it('refuses a PDF signed (given a form) already', () => {
    expect(() => withSignatureField(placeheld, field)).toThrow(/already has a form/);
  });

  it('refuses a PDF with cross-reference streams, naming why', async () => {
    const packed = path.join(dir, 'packed.pdf');
    await run('qpdf', ['--object-streams=generate', file, packed]);
    expect(() => withSignatureField(readFileSync(packed), field)).toThrow(PdfStructureError);
    expect(() => withSignatureField(readFileSync(packed), field)).toThrow(/cross-reference stream/);
  });
});
