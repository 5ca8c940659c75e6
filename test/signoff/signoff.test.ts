/**
 * Issue 25 through the real command: a month-end against the sandbox, then review, reject,
 * approve with a PAdES signature (timestamped by a local RFC 3161 authority), delivery and
 * verify. The signed PDFs are read back by independent readers: poppler's pdfsig (signature valid,
 * whole document signed; a changed byte is reported), qpdf --check, and the PDF/A-3a + PDF/UA-1
 * structure checks every report passes (test/report-writers/pdf-archival.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvals, openDatabase } from '../../src/db';
import { MANIFEST_FILE } from '../../reports/run-manifest';
import { expectArchivalAndTagged } from '../report-writers/pdf-archival';
import { readStructure } from '../report-writers/pdf-structure';
import { CLI_ARGS, ROOT, runCli, serviceEnv, tempDir, testSandbox, type CliResult, type TestSandbox } from '../reports/helpers';
import { makePki, type TestPki } from './certificates';
import { startTimestampServer, type TimestampServer } from './timestamp-server';

const exec = promisify(execFile);
/** Distinctive, so any leak is found by a plain search. */
const PASSWORD = 'Zq7!signing-PASSWORD-do-not-leak-4481';
const REVIEWER = 'Ann Reviewer <ann@meridian.example>';

const PORTFOLIOS = ['Okafor Household', 'Lindqvist Trust', 'Tanaka Collection', 'Moreau Family'];
function input(month: number): string {
  const rows = PORTFOLIOS.flatMap((p, i) => [
    `${p},watches,Rolex,Submariner Date,126610LN,2021,excellent,1,${9000 + i * 100},2021-05-1${i},USD`,
    `${p},watches,Omega,Speedmaster Professional,310.30.42.50.01.001,2020,very_good,1,${5000 + i * 50 + month},2020-03-0${i + 1},USD`,
  ]);
  return ['portfolio,segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency', ...rows].join('\n') + '\n';
}

let sb: TestSandbox;
let tsa: TimestampServer;
let pki: TestPki;
let work: string;
let dir: string;
let outbox: string;
let db: string;
const outputs: CliResult[] = [];
let rejected: CliResult;
let approved: CliResult;
/** approve --sign --deliver on the sandbox run without --allow-sandbox, and the manifest before and after it. */
let refusedSandbox: CliResult;
let manifestBeforeRefusal: string;
let manifestAfterRefusal: string;

const cli = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const r = await runCli(args, env);
  outputs.push(r);
  return r;
};
const pdf = (slug: string) => join(dir, `${slug}-2026-10-31.pdf`);
const html = (slug: string) => join(dir, `${slug}-2026-10-31.html`);
/** A delivery's tree for these clients: each client's folder, its web page and its PDF. */
const deliveredTree = (slugs: string[]) => slugs.flatMap((s) => [s, `${s}/${s}-2026-10-31.html`, `${s}/${s}-2026-10-31.pdf`]);
const pdfsig = async (file: string) => (await exec('pdfsig', [file]).catch((e: { stdout: string }) => e)).stdout;

beforeAll(async () => {
  sb = await testSandbox();
  work = tempDir('svc-report-signoff-');
  pki = makePki(tempDir('svc-report-pki-'), PASSWORD);
  tsa = await startTimestampServer(pki);
  const env = serviceEnv(sb);
  writeFileSync(join(work, 'september.csv'), input(0));
  const sept = join(work, '2026-09');
  dir = join(work, '2026-10');
  outbox = join(work, 'outbox');
  db = join(work, 'db');
  // The history database the month-end would have recorded into: approve and reject refuse a folder holding none (issue 34).
  await (await openDatabase(db)).close();
  // Last month: --previous reads its JSON, the tests below its PDFs (an unsigned report) and a web page (a replayed one); no xlsx or csv needed.
  expect((await runCli(['run', join(work, 'september.csv'), '--out', sept, '--as-of', '2026-09-30', '--formats', 'json,pdf,html'], env)).code).toBe(0);
  // Every format, the web page too (issue 38): delivered beside the PDF.
  expect((await runCli(['run', join(work, 'september.csv'), '--out', dir, '--as-of', '2026-10-31', '--previous', sept, '--formats', 'xlsx,csv,json,pdf,html'], env)).code).toBe(0);
  manifestBeforeRefusal = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  refusedSandbox = await cli(['approve', dir, '--by', REVIEWER, '--sign', pki.p12, '--deliver', outbox, '--db', db], { SVC_SIGN_PASSWORD: PASSWORD });
  manifestAfterRefusal = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  rejected = await cli(['reject', dir, '--portfolio', 'Tanaka Collection', '--by', 'Bob Checker <bob@meridian.example>', '--reason', 'Speedmaster priced off the wrong reference', '--db', db]);
  approved = await cli(
    ['approve', dir, '--portfolio', 'Okafor Household', 'lindqvist-trust-2026-10-31', 'Tanaka Collection', '--by', REVIEWER, '--sign', pki.p12, '--location', 'London', '--tsa', tsa.url, '--deliver', outbox, '--db', db, '--allow-sandbox'],
    { SVC_SIGN_PASSWORD: PASSWORD },
  );
}, 600_000);

afterAll(async () => {
  await tsa?.close();
  await sb?.close();
});

describe('svc-report review', () => {
  it('on a missing folder or a file, says so (exit 2), not "unexpected error"', async () => {
    const nowhere = join(work, 'nowhere');
    const r = await cli(['review', nowhere]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${nowhere}: no such folder`);
    expect(r.stderr).not.toMatch(/unexpected error/);
    const v = await cli(['verify', nowhere]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(`${nowhere}: no such file or folder`);
    const notFolder = await cli(['review', join(work, 'september.csv')]);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toMatch(/september\.csv is not a folder/);
  });

  it('lists each report with its total, change on the month, coverage, validation, large moves and analyst notes', async () => {
    const r = await cli(['review', dir, '--flag-move', '0.0001']);
    expect(r.code, r.stderr).toBe(0);
    for (const p of PORTFOLIOS) expect(r.stdout).toContain(`${p} (client report;`);
    expect(r.stdout).toMatch(/Consolidated \(internal;/);
    expect(r.stdout).toMatch(/Total value USD [\d,]+\.\d\d; change on the month USD -?[\d,]+\.\d\d \([+-]\d+\.\d %\) since 2026-09-30/);
    expect(r.stdout).toContain('Not valued: none');
    expect(r.stdout).toMatch(/Moved more than 0.0001 % since last month: [1-9]/);
    expect(r.stdout).toMatch(/Analyst notes: [1-9]/);
    expect(r.stdout).toMatch(/Tanaka Collection \(client report; tanaka-collection-2026-10-31\): approved by Ann Reviewer <ann@meridian\.example> at .*, PDF signed/);
    expect(r.stdout).toMatch(/Moreau Family \(client report; moreau-family-2026-10-31\): draft \(not approved\)/);
    // A threshold no move reaches flags none.
    expect((await cli(['review', dir, '--flag-move', '1000'])).stdout).not.toMatch(/since last month: [1-9]/);
  });
});

describe('sandbox data', () => {
  it('approve --sign --deliver refuses a sandbox run without --allow-sandbox, naming the reports: nothing decided, signed or delivered', async () => {
    expect(refusedSandbox.code).toBe(2);
    for (const slug of ['okafor-household', 'lindqvist-trust', 'tanaka-collection', 'moreau-family']) expect(refusedSandbox.stderr).toContain(`${slug}-2026-10-31`);
    expect(refusedSandbox.stderr).toMatch(/sandbox data \(figures from the test sandbox, not the live service\), never approved, signed or delivered for a client; give --allow-sandbox for a rehearsal/);
    expect(refusedSandbox.stderr).not.toMatch(/\n\s+at /);
    expect(manifestAfterRefusal).toBe(manifestBeforeRefusal);
    expect(JSON.parse(manifestAfterRefusal).approvals).toBeUndefined();
    // The approval after it (with --allow-sandbox) made the outbox; the refusal made nothing, and signed nothing (okafor's PDF was signed once, by the approval).
    expect(tsa.answered()).toBe(3);
  });

  it('approve alone refuses sandbox reports too', async () => {
    const r = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--db', 'off']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/moreau-family-2026-10-31: sandbox data .*never approved for a client; give --allow-sandbox/);
  });
});

describe('approve, reject and --deliver', () => {
  it('records each decision in the manifest and the history database', async () => {
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(approved.code, approved.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    const decisions = manifest.approvals.map((a: { report: string; decision: string }) => `${a.report}:${a.decision}`);
    expect(decisions).toEqual(['tanaka-collection-2026-10-31:rejected', 'okafor-household-2026-10-31:approved', 'lindqvist-trust-2026-10-31:approved', 'tanaka-collection-2026-10-31:approved']);
    const okafor = manifest.approvals[1];
    expect(okafor.by).toBe(REVIEWER);
    expect(okafor.signature.timestamp_authority).toBe(tsa.url);
    expect(okafor.files.map((f: { name: string }) => f.name)).toEqual(['okafor-household-2026-10-31.csv', 'okafor-household-2026-10-31.html', 'okafor-household-2026-10-31.json', 'okafor-household-2026-10-31.pdf', 'okafor-household-2026-10-31.xlsx']);
    const opened = await openDatabase(db);
    try {
      const rows = await approvals(opened);
      expect(rows.map((r) => `${r.portfolio}:${r.decision}:${r.asOf}`)).toEqual(['Tanaka Collection:rejected:2026-10-31', 'Okafor Household:approved:2026-10-31', 'Lindqvist Trust:approved:2026-10-31', 'Tanaka Collection:approved:2026-10-31']);
      expect(rows[0]!.reason).toBe('Speedmaster priced off the wrong reference');
      expect(rows[1]!.files).toEqual(okafor.files);
    } finally {
      await opened.close();
    }
  });

  it('delivers the approved, signed client PDFs with their web pages beside them, one folder per client, and nothing unapproved', () => {
    const tree = readdirSync(outbox, { recursive: true }).map(String).filter((n) => n !== '.svc-report-delivery.json').sort();
    // Tanaka was rejected, then approved: delivered. Moreau was never approved: absent. No JSON, CSV, XLSX, no consolidated.
    expect(tree).toEqual(deliveredTree(['lindqvist-trust', 'okafor-household', 'tanaka-collection']));
    expect(readFileSync(join(outbox, 'okafor-household/okafor-household-2026-10-31.pdf')).equals(readFileSync(pdf('okafor-household')))).toBe(true);
    expect(readFileSync(join(outbox, 'okafor-household/okafor-household-2026-10-31.html')).equals(readFileSync(html('okafor-household')))).toBe(true);
    // The delivery record lists the web page with its hash, so a rejection takes it back too.
    const record = JSON.parse(readFileSync(join(outbox, '.svc-report-delivery.json'), 'utf8')) as { files: { name: string; sha256: string }[] };
    expect(record.files.find((f) => f.name === 'okafor-household-2026-10-31.html')?.sha256).toBe(createHash('sha256').update(readFileSync(html('okafor-household'))).digest('hex'));
  });

  it('delivers sandbox data only as a rehearsal (--allow-sandbox): the copies keep their SANDBOX DATA marks', async () => {
    const { stdout } = await exec('pdftotext', ['-f', '1', '-l', '1', join(outbox, 'okafor-household/okafor-household-2026-10-31.pdf'), '-']);
    expect(stdout).toContain('SANDBOX DATA');
    expect(stdout).toContain('Not for client use');
  });

  it('never delivers a rejected report: a delivery after a rejection takes back the earlier copy', async () => {
    const again = await cli(['reject', dir, '--portfolio', 'Tanaka Collection', '--by', REVIEWER, '--reason', 'second look: wrong month', '--db', 'off']);
    expect(again.code, again.stderr).toBe(0);
    // Taken back at once: the rejection itself removes the copy delivered before.
    expect(again.stderr).toContain(`Taken back from the delivery: ${join(outbox, 'tanaka-collection', 'tanaka-collection-2026-10-31.pdf')}.`);
    expect(again.stderr).toContain(`Taken back from the delivery: ${join(outbox, 'tanaka-collection', 'tanaka-collection-2026-10-31.html')}.`);
    expect(readdirSync(outbox).sort()).toEqual(['.svc-report-delivery.json', 'lindqvist-trust', 'okafor-household']);
    const more = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--deliver', outbox, '--db', 'off', '--allow-sandbox']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toMatch(/Not delivered: tanaka-collection-2026-10-31 \(rejected\)/);
    expect((await cli(['review', dir])).stdout).toMatch(/Tanaka Collection \(client report; tanaka-collection-2026-10-31\): rejected by Ann Reviewer <ann@meridian\.example> at .*: second look: wrong month/);
    const tree = readdirSync(outbox, { recursive: true }).map(String).filter((n) => n !== '.svc-report-delivery.json').sort();
    expect(tree).toEqual(deliveredTree(['lindqvist-trust', 'moreau-family', 'okafor-household']));
  });

  it('a web page replaced after approval (last month\'s, replayed) or changed by one byte: not delivered, the earlier copies taken back, verify names it', async () => {
    const file = html('lindqvist-trust');
    const original = readFileSync(file);
    writeFileSync(file, readFileSync(join(work, '2026-09', 'lindqvist-trust-2026-09-30.html')));
    try {
      const replayed = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--deliver', outbox, '--db', 'off', '--allow-sandbox']);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stderr).toMatch(/Not delivered: lindqvist-trust-2026-10-31 \(changed\)/);
      for (const ext of ['pdf', 'html']) expect(replayed.stderr).toContain(`Taken back from the delivery: ${join(outbox, 'lindqvist-trust', `lindqvist-trust-2026-10-31.${ext}`)}.`);
      expect(existsSync(join(outbox, 'lindqvist-trust'))).toBe(false);
      const changed = Buffer.from(original);
      const at = changed.length >> 1;
      changed[at] = changed[at]! ^ 0x01;
      writeFileSync(file, changed);
      const r = await cli(['verify', dir]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/CHANGED {2}lindqvist-trust-2026-10-31\.html: its SHA-256 or size differs from the manifest/);
      expect(r.stdout).toMatch(/FAILED {3}lindqvist-trust-2026-10-31\.html: changed after Ann Reviewer <ann@meridian\.example> approved it at .*: no longer approved/);
    } finally {
      writeFileSync(file, original);
    }
    // The web page as approved again: the next delivery brings both files back.
    const again = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--deliver', outbox, '--db', 'off', '--allow-sandbox']);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(join(outbox, 'lindqvist-trust')).sort()).toEqual(['lindqvist-trust-2026-10-31.html', 'lindqvist-trust-2026-10-31.pdf']);
  });
});

describe('signed client PDFs', () => {
  const signed = ['okafor-household', 'lindqvist-trust', 'tanaka-collection'];

  it('pdfsig finds one valid PAdES signature over the whole document, with reason and location', async () => {
    for (const slug of signed) {
      const out = await pdfsig(pdf(slug));
      expect(out, slug).toContain('Signature Type: ETSI.CAdES.detached');
      expect(out, slug).toContain('Signature Validation: Signature is Valid.');
      expect(out, slug).toContain('Total document signed');
      expect(out, slug).toContain('Signer Certificate Common Name: Meridian Reports');
      expect(out, slug).toContain('Signing Hash Algorithm: SHA-256');
    }
    // The draft was approved later without --sign: not signed.
    expect(await pdfsig(pdf('moreau-family'))).toMatch(/does not contain any signatures/);
  });

  it('carries signing-certificate-v2 and an RFC 3161 timestamp from the local authority (openssl reads the CMS)', async () => {
    const bytes = readFileSync(pdf('okafor-household'));
    const text = bytes.toString('latin1');
    const contents = /\/Contents\s*<([0-9a-fA-F]+)>/.exec(text.slice(text.lastIndexOf('/ByteRange')))![1]!;
    const cms = join(work, 'okafor.p7s');
    writeFileSync(cms, Buffer.from(contents.replace(/(00)+$/, ''), 'hex'));
    const { stdout } = await exec('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', cms]);
    expect(stdout).toContain('id-smime-aa-signingCertificateV2');
    expect(stdout).toContain('id-smime-aa-timeStampToken');
    // PAdES takes the time from /M: no signing-time among the signer's attributes (the timestamp token, after them, has its own).
    expect(stdout.slice(0, stdout.indexOf('id-smime-aa-timeStampToken'))).not.toMatch(/signingTime/);
    expect(text).toMatch(/\/Reason \(Approved for the client by Ann Reviewer <ann@meridian\.example>\)/);
    expect(text).toMatch(/\/Location \(London\)/);
    expect(tsa.answered()).toBeGreaterThanOrEqual(signed.length);
    // verify reads the token and checks it is over this signature value.
    const { checkPdfSignatures } = await import('../../reports/signoff/sign/check-signature');
    expect(checkPdfSignatures(bytes, undefined)).toEqual([
      { problems: [], signer: expect.stringContaining('CN=Meridian Reports'), timestamped: true, claimedAt: expect.stringMatching(/^2\d{3}-/), timestamp: { at: expect.stringMatching(/^2\d{3}-/), authority: expect.stringContaining('CN=Test Timestamp Authority') } },
    ]);
  });

  it('stays PDF/A-3a and PDF/UA-1: qpdf --check, complete tagging, the widget printed, described and tagged as a Form', async () => {
    for (const slug of signed) {
      const { stdout } = await exec('qpdf', ['--check', pdf(slug)]);
      expect(stdout).toMatch(/No syntax or stream encoding errors found/);
      const s = await readStructure(pdf(slug));
      expectArchivalAndTagged(s, 'en-GB');
      const forms = s.elements.filter((e) => e.type === 'Form');
      expect(forms).toHaveLength(1);
      expect(forms[0]!.alt).toMatch(/^Digital signature of Ann Reviewer/);
      expect(forms[0]!.annotations).toHaveLength(1);
      const json = JSON.parse((await exec('qpdf', ['--json', '--json-key=qpdf', '--json-stream-data=none', pdf(slug)], { maxBuffer: 256 * 1024 * 1024 })).stdout) as { qpdf: [unknown, Record<string, { value: Record<string, unknown> }>] };
      const w = json.qpdf[1][`obj:${forms[0]!.annotations[0]}`]!.value;
      expect(w['/Subtype']).toBe('/Widget');
      expect(Number(w['/F']) & 4).toBe(4);
      expect(String(w['/TU'])).toMatch(/Digital signature of Ann Reviewer/);
      expect(w['/AP']).toBeDefined();
    }
  });

  it('verify --ca passes the folder: approvals hold and every signature chains to the CA', async () => {
    const r = await cli(['verify', dir, '--ca', pki.caCert]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Signatures: 3 signed PDFs checked against the CA');
    expect(r.stdout).toMatch(/APPROVED okafor-household-2026-10-31: by Ann Reviewer/);
    expect(r.stdout).toMatch(/REJECTED tanaka-collection-2026-10-31/);
  });

  it('verify names a signer whose certificate does not chain to the CA given', async () => {
    const r = await cli(['verify', dir, '--ca', pki.otherCaCert]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {3}okafor-household-2026-10-31\.pdf: signature: the signer's certificate does not chain to a CA in --ca/);
  });

  it('one byte changed in a signed PDF: pdfsig and verify both report it, naming the file', async () => {
    const file = pdf('lindqvist-trust');
    const original = readFileSync(file);
    const changed = Buffer.from(original);
    const at = Math.floor(original.length / 3);
    changed.writeUInt8(changed.readUInt8(at) ^ 0x01, at);
    writeFileSync(file, changed);
    try {
      expect(await pdfsig(file)).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
      const r = await cli(['verify', dir, '--ca', pki.caCert]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/FAILED {3}lindqvist-trust-2026-10-31\.pdf: signature: the document was modified after signing/);
      expect(r.stdout).toMatch(/FAILED {3}lindqvist-trust-2026-10-31\.pdf: changed after Ann Reviewer <ann@meridian\.example> approved it/);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('a report edited after approval is flagged by verify and shown as not approved by review', async () => {
    const file = join(dir, 'okafor-household-2026-10-31.csv');
    const original = readFileSync(file);
    writeFileSync(file, Buffer.concat([original, Buffer.from('\n')]));
    try {
      const r = await cli(['verify', dir]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/FAILED {3}okafor-household-2026-10-31\.csv: changed after Ann Reviewer <ann@meridian\.example> approved it at .*: no longer approved/);
      expect((await cli(['review', dir])).stdout).toMatch(/Okafor Household \(client report; okafor-household-2026-10-31\): NOT APPROVED: changed after/);
      // And it is refused for approval until the month-end is run again.
      const again = await cli(['approve', dir, '--portfolio', 'Okafor Household', '--by', REVIEWER, '--db', 'off', '--allow-sandbox']);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/okafor-household-2026-10-31\.csv: changed since the run wrote it/);
    } finally {
      writeFileSync(file, original);
    }
  });
});

describe('the seal on the cover', () => {
  it("names the signer, the approver and the signing date in an embedded font: pdftotext reads it, pdffonts lists it, pdftoppm draws it", async () => {
    const file = pdf('okafor-household');
    const { stdout: text } = await exec('pdftotext', ['-f', '1', '-l', '1', '-layout', file, '-']);
    expect(text).toContain('Digitally signed by Meridian Reports');
    expect(text).toContain('Approved by Ann Reviewer <ann@meridian.example>');
    expect(text).toMatch(/Date: 2\d{3}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    // The unsigned report of last month has no seal.
    const { stdout: before } = await exec('pdftotext', ['-f', '1', '-l', '1', join(work, '2026-09', 'okafor-household-2026-09-30.pdf'), '-']);
    expect(before).not.toContain('Digitally signed by');
    const { stdout: fonts } = await exec('pdffonts', ['-f', '1', '-l', '1', file]);
    // Embedded, subset, with a ToUnicode map (emb sub uni: yes yes yes).
    expect(fonts).toMatch(/SVCSEA\+DejaVuSansCondensed\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    // Rendered at 144 dpi: the seal's text area (PDF points 124-300 x 140-190 from the bottom of the A4 page, 842 pt high) holds ink
    // where last month's unsigned cover has none, and poppler complains of nothing.
    const inkInSealText = async (f: string) => {
      const r = await exec('pdftoppm', ['-f', '1', '-l', '1', '-r', '144', '-gray', '-x', '248', '-y', String((842 - 190) * 2), '-W', '352', '-H', '100', f], { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 });
      expect(r.stderr.toString()).toBe('');
      const pgm = r.stdout as Buffer;
      const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 32).toString('latin1'))!;
      return pgm.subarray(header[0].length).filter((v) => v < 128).length;
    };
    expect(await inkInSealText(file)).toBeGreaterThan(600);
    expect(await inkInSealText(join(work, '2026-09', 'okafor-household-2026-09-30.pdf'))).toBe(0);
  });
});

describe('verify FILE.pdf: one delivered PDF as a client or auditor holds it', () => {
  const delivered = () => join(outbox, 'okafor-household', 'okafor-household-2026-10-31.pdf');
  const copy = (name: string, bytes: Buffer) => {
    const file = join(work, name);
    writeFileSync(file, bytes);
    return file;
  };

  it('passes a delivered PDF: signer, whole file covered, chain to --ca, timestamp over the signature (exit 0)', async () => {
    const r = await cli(['verify', delivered(), '--ca', pki.caCert]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Signature: VALID');
    expect(r.stdout).toMatch(/Signer: .*CN=Meridian Reports/);
    expect(r.stdout).toContain('Covers the whole file but the signature itself');
    expect(r.stdout).toContain(`Certificate: chains to a CA in ${pki.caCert}`);
    expect(r.stdout).toMatch(/Timestamp: 2\d{3}-\d{2}-\d{2}T[\d:.]+Z by .*CN=Test Timestamp Authority.*, over this signature/);
    expect(r.stdout).toMatch(/Verified: .*okafor-household-2026-10-31\.pdf is signed and unchanged since it was signed; its signer chains to/);
  });

  it('one changed byte: exit 1, naming the digest', async () => {
    const bytes = Buffer.from(readFileSync(delivered()));
    const at = Math.floor(bytes.length / 4);
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0x01, at);
    const r = await cli(['verify', copy('one-byte.pdf', bytes), '--ca', pki.caCert]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {3}.*one-byte\.pdf: the document was modified after signing: its digest does not match the signature/);
  });

  it('an incremental update appended after the signature: exit 1, naming it', async () => {
    const { readPdf, incrementalUpdate, objectBody, refOf, withEntries } = await import('../../reports/signoff/sign/pdf-objects');
    const original = readFileSync(delivered());
    const parsed = readPdf(original);
    // What an attacker would do: change the document's metadata (or a page) in a new revision, leaving the signed bytes alone.
    const info = refOf(parsed.trailer, 'Info')!;
    const updated = incrementalUpdate(parsed, new Map([[info, withEntries(objectBody(parsed, info), '/Subject (Figures revised)')]]), parsed.size);
    const r = await cli(['verify', copy('appended.pdf', updated), '--ca', pki.caCert]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {3}.*appended\.pdf: the file was changed after it was signed \(bytes added after the signed part/);
  });

  it("a timestamp backdated in place (the token sits outside the signed bytes): exit 1, the authority's signature no longer matches", async () => {
    const bytes = Buffer.from(readFileSync(delivered()));
    // The token's genTime: GeneralizedTime (tag 0x18, 15 bytes) "2026…Z", hex in the Contents; made a year earlier.
    const at = bytes.indexOf('180f32303236', 0, 'latin1');
    expect(at).toBeGreaterThan(0);
    bytes.write('180f32303235', at, 'latin1');
    const r = await cli(['verify', copy('backdated.pdf', bytes), '--ca', pki.caCert]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {3}.*backdated\.pdf: its timestamp's content does not match the authority's signature \(altered\)/);
    expect(r.stdout).not.toMatch(/modified after signing/);
  });

  it('a wrong --ca: exit 1, naming the chain', async () => {
    const r = await cli(['verify', delivered(), '--ca', pki.otherCaCert]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {3}.*: the signer's certificate does not chain to a CA in --ca/);
    expect(r.stdout).toMatch(/its timestamp: the authority's certificate does not chain to a CA in --ca/);
  });

  it('an unsigned PDF fails (exit 1); a file that is not a PDF, or a link, is refused (exit 2)', async () => {
    const unsigned = await cli(['verify', join(work, '2026-09', 'okafor-household-2026-09-30.pdf')]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toMatch(/it carries no signature/);
    const csv = await cli(['verify', join(work, 'september.csv')]);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toMatch(/september\.csv is not a PDF/);
    const link = join(work, 'link.pdf');
    symlinkSync(delivered(), link);
    const linked = await cli(['verify', link]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/link\.pdf: is not a regular file \(a symbolic link\)/);
  });
});

describe('the signing password', () => {
  it('is refused when wrong, without being echoed', async () => {
    const wrong = `${PASSWORD}-wrong`;
    const r = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--sign', pki.p12, '--db', 'off', '--allow-sandbox'], { SVC_SIGN_PASSWORD: wrong });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be opened: the password is wrong or it is not a PKCS#12 file/);
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });

  it('is asked for when SVC_SIGN_PASSWORD is not set, and without a terminal the command says how to give it', async () => {
    const r = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--sign', pki.p12, '--db', 'off', '--allow-sandbox']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/set SVC_SIGN_PASSWORD to its password/);
  });

  it('is read from the terminal, not echoed, when SVC_SIGN_PASSWORD is not set', async () => {
    // script(1) gives the command a terminal; what it prints (the echo, were there one) comes back on stdout.
    const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    const line = [process.execPath, ...CLI_ARGS, 'approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--sign', pki.p12, '--db', 'off', '--allow-sandbox', '--log-format', 'text'].map(quote).join(' ');
    const child = spawn('script', ['-qec', line, '/dev/null'], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, SOURCE_DATE_EPOCH: '1793491200' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = '';
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.includes('Password for')) resolve();
      });
    });
    child.stdin!.write(`${PASSWORD}\r`);
    const code = await done;
    outputs.push({ code, signal: null, stdout: seen, stderr: '' });
    expect(code, seen).toBe(0);
    expect(seen).toMatch(/Approved moreau-family-2026-10-31 .*; PDF signed/);
    expect(seen).not.toContain(PASSWORD);
    expect(await pdfsig(pdf('moreau-family'))).toContain('Signature Validation: Signature is Valid.');
  });

  it('never appears in any output, the manifest, the report folder, the delivery or the database', () => {
    for (const o of outputs) expect(o.stdout + o.stderr).not.toContain(PASSWORD);
    const files = (root: string): string[] => readdirSync(root, { recursive: true }).map((n) => join(root, String(n))).filter((f) => statSync(f).isFile());
    for (const f of [...files(dir), ...files(outbox), ...files(db)]) expect(readFileSync(f).includes(PASSWORD), f).toBe(false);
  });
});
