/**
 * Issue 25 through the real command: a month-end against the sandbox, then review, reject,
 * approve with a PAdES signature (timestamped by a local RFC 3161 authority), delivery and
 * verify. The signed PDFs are read back by independent readers: poppler's pdfsig (signature valid,
 * whole document signed; a changed byte is reported), qpdf --check, and the PDF/A-3a + PDF/UA-1
 * structure checks every report passes (test/report-writers/pdf-archival.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

const cli = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const r = await runCli(args, env);
  outputs.push(r);
  return r;
};
const pdf = (slug: string) => join(dir, `${slug}-2026-10-31.pdf`);
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
  expect((await runCli(['run', join(work, 'september.csv'), '--out', sept, '--as-of', '2026-09-30'], env)).code).toBe(0);
  expect((await runCli(['run', join(work, 'september.csv'), '--out', dir, '--as-of', '2026-10-31', '--previous', sept], env)).code).toBe(0);
  rejected = await cli(['reject', dir, '--portfolio', 'Tanaka Collection', '--by', 'Bob Checker <bob@meridian.example>', '--reason', 'Speedmaster priced off the wrong reference', '--db', db]);
  approved = await cli(
    ['approve', dir, '--portfolio', 'Okafor Household', 'lindqvist-trust-2026-10-31', 'Tanaka Collection', '--by', REVIEWER, '--sign', pki.p12, '--location', 'London', '--tsa', tsa.url, '--deliver', outbox, '--db', db],
    { SVC_SIGN_PASSWORD: PASSWORD },
  );
}, 300_000);

afterAll(async () => {
  await tsa?.close();
  await sb?.close();
});

describe('svc-report review', () => {
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
    expect(okafor.files.map((f: { name: string }) => f.name)).toEqual(['okafor-household-2026-10-31.csv', 'okafor-household-2026-10-31.json', 'okafor-household-2026-10-31.pdf', 'okafor-household-2026-10-31.xlsx']);
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

  it('delivers the approved, signed client PDFs, one folder per client, and nothing unapproved', () => {
    const tree = readdirSync(outbox, { recursive: true }).map(String).sort();
    // Tanaka was rejected, then approved: delivered. Moreau was never approved: absent. No JSON, CSV, XLSX, no consolidated.
    expect(tree).toEqual(['lindqvist-trust', 'lindqvist-trust/lindqvist-trust-2026-10-31.pdf', 'okafor-household', 'okafor-household/okafor-household-2026-10-31.pdf', 'tanaka-collection', 'tanaka-collection/tanaka-collection-2026-10-31.pdf']);
    expect(readFileSync(join(outbox, 'okafor-household/okafor-household-2026-10-31.pdf')).equals(readFileSync(pdf('okafor-household')))).toBe(true);
  });

  it('never delivers a rejected report: a delivery after a rejection takes back the earlier copy', async () => {
    const again = await cli(['reject', dir, '--portfolio', 'Tanaka Collection', '--by', REVIEWER, '--reason', 'second look: wrong month', '--db', 'off']);
    expect(again.code, again.stderr).toBe(0);
    const more = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--deliver', outbox, '--db', 'off']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toMatch(/Not delivered: tanaka-collection-2026-10-31 \(rejected\)/);
    expect((await cli(['review', dir])).stdout).toMatch(/Tanaka Collection \(client report; tanaka-collection-2026-10-31\): rejected by Ann Reviewer <ann@meridian\.example> at .*: second look: wrong month/);
    const tree = readdirSync(outbox, { recursive: true }).map(String).sort();
    expect(tree).toEqual(['lindqvist-trust', 'lindqvist-trust/lindqvist-trust-2026-10-31.pdf', 'moreau-family', 'moreau-family/moreau-family-2026-10-31.pdf', 'okafor-household', 'okafor-household/okafor-household-2026-10-31.pdf']);
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
    expect(checkPdfSignatures(bytes, undefined)).toEqual([{ problems: [], signer: expect.stringContaining('CN=Meridian Reports'), timestamped: true }]);
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
      const again = await cli(['approve', dir, '--portfolio', 'Okafor Household', '--by', REVIEWER, '--db', 'off']);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/okafor-household-2026-10-31\.csv: changed since the run wrote it/);
    } finally {
      writeFileSync(file, original);
    }
  });
});

describe('the signing password', () => {
  it('is refused when wrong, without being echoed', async () => {
    const wrong = `${PASSWORD}-wrong`;
    const r = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--sign', pki.p12, '--db', 'off'], { SVC_SIGN_PASSWORD: wrong });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be opened: the password is wrong or it is not a PKCS#12 file/);
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });

  it('is asked for when SVC_SIGN_PASSWORD is not set, and without a terminal the command says how to give it', async () => {
    const r = await cli(['approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--sign', pki.p12, '--db', 'off']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/set SVC_SIGN_PASSWORD to its password/);
  });

  it('is read from the terminal, not echoed, when SVC_SIGN_PASSWORD is not set', async () => {
    // script(1) gives the command a terminal; what it prints (the echo, were there one) comes back on stdout.
    const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    const line = [process.execPath, ...CLI_ARGS, 'approve', dir, '--portfolio', 'Moreau Family', '--by', REVIEWER, '--sign', pki.p12, '--db', 'off', '--log-format', 'text'].map(quote).join(' ');
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
