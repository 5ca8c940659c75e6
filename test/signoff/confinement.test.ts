/**
 * Issue 35, tried as an attacker with write access to a run folder or the delivery folder would:
 * `../` and absolute names in an unsigned manifest, links and FIFOs in place of a run's files,
 * links planted in the delivery folder (a client's file, a client's folder, the folder itself), a
 * delivery record edited to point elsewhere. Each is refused (exit 2, naming it) with nothing
 * written, deleted or read outside; take-back removes only what delivery wrote. And `history
 * import` of a folder that does not verify, or that holds a value out of range, records nothing.
 * One month-end run; each case works on its own copy of the folder.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../reports/run-manifest';
import { DELIVERY_RECORD } from '../../reports/signoff/delivery-record';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

const REVIEWER = 'Ann Reviewer <ann@meridian.example>';
const OKAFOR = 'okafor-household-2026-10-31';
const VICTIM_TEXT = 'the firm-wide fee schedule, not to be touched\n';
const SECRET = 'SVC_CLIENT_SECRET=hunter2-do-not-quote-7731';
/** Several command start-ups (and a database's creation) each, a few seconds apiece on a loaded 2-core machine. */
const SLOW = 300_000;

let sb: TestSandbox;
let work: string;
let run: string;
let n = 0;

beforeAll(async () => {
  sb = await testSandbox();
  work = tempDir('svc-report-confinement-');
  writeFileSync(
    join(work, 'holdings.csv'),
    'portfolio,segment,brand,model,reference,year,condition,quantity,purchase_price,purchase_date,currency\n' +
      'Okafor Household,watches,Rolex,Submariner Date,126610LN,2021,excellent,1,9000,2021-05-10,USD\n' +
      'Moreau Family,watches,Omega,Speedmaster Professional,310.30.42.50.01.001,2020,very_good,1,5000,2020-03-01,USD\n',
  );
  run = join(work, 'run');
  const r = await runCli(['run', join(work, 'holdings.csv'), '--out', run, '--as-of', '2026-10-31', '--formats', 'json,pdf,html'], serviceEnv(sb));
  expect(r.code, r.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await sb?.close();
});

/** A fresh case: a copy of the run folder, a victim folder with one file beside it, an outbox path. */
function newCase(): { dir: string; victimDir: string; victim: string; outbox: string; root: string } {
  const root = join(work, `case-${++n}`);
  const dir = join(root, 'runs', '2026-10');
  cpSync(run, dir, { recursive: true });
  const victimDir = join(root, 'victim');
  mkdirSync(victimDir);
  const victim = join(victimDir, 'important-2026-10-31.pdf');
  writeFileSync(victim, VICTIM_TEXT);
  return { dir, victimDir, victim, outbox: join(root, 'outbox'), root };
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
const writeManifestOf = (dir: string, m: unknown) => writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m, null, 2) + '\n');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const approve = (dir: string, extra: string[] = []) => runCli(['approve', dir, '--by', REVIEWER, '--db', 'off', '--allow-sandbox', ...extra]);
const expectNoStack = (s: string) => expect(s).not.toMatch(/\n\s+at |unexpected error/);

describe('a folder that is not a run folder', () => {
  it('approve and reject on a missing folder, or one without a manifest, say so (exit 2), not "unexpected error"', async () => {
    const nowhere = join(work, 'nowhere');
    const missing = await approve(nowhere);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${nowhere}: no such folder`);
    expectNoStack(missing.stderr);
    const bare = join(work, 'bare');
    mkdirSync(bare);
    const noManifest = await runCli(['reject', bare, '--by', REVIEWER, '--reason', 'x', '--db', 'off']);
    expect(noManifest.code).toBe(2);
    expect(noManifest.stderr).toContain(`${bare} is not a report folder: it has no manifest.json`);
    expectNoStack(noManifest.stderr);
  });
});

describe('an unsigned manifest cannot steer approval outside its folder', () => {
  it('a "../../victim/…" entry: approve, approve --deliver, reject and review refuse it by name; nothing outside is read, written or deleted', async () => {
    const c = newCase();
    const m = manifestOf(c.dir);
    const evil = '../../victim/important-2026-10-31.pdf';
    m.files.push({ name: evil, sha256: sha256(VICTIM_TEXT), bytes: VICTIM_TEXT.length, run_id: m.files[0].run_id });
    writeManifestOf(c.dir, m);
    const before = readFileSync(join(c.dir, MANIFEST_FILE), 'utf8');
    for (const r of [
      await approve(c.dir, ['--deliver', c.outbox]),
      await runCli(['reject', c.dir, '--by', REVIEWER, '--reason', 'x', '--db', 'off']),
      await runCli(['review', c.dir]),
    ]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`lists ${JSON.stringify(evil)}, which contains a path separator`);
      expectNoStack(r.stderr);
    }
    expect(readFileSync(c.victim, 'utf8')).toBe(VICTIM_TEXT);
    expect(readdirSync(c.victimDir)).toEqual(['important-2026-10-31.pdf']);
    expect(existsSync(c.outbox)).toBe(false);
    expect(readFileSync(join(c.dir, MANIFEST_FILE), 'utf8')).toBe(before);
  });

  it('an absolute entry and a ".." name are refused too', async () => {
    const c = newCase();
    const m = manifestOf(c.dir);
    m.files.push({ name: c.victim, sha256: sha256(VICTIM_TEXT), bytes: VICTIM_TEXT.length });
    writeManifestOf(c.dir, m);
    const absolute = await approve(c.dir);
    expect(absolute.code).toBe(2);
    expect(absolute.stderr).toContain('which is an absolute path');
    m.files.pop();
    m.files.push({ name: '..', sha256: sha256(VICTIM_TEXT), bytes: 1 });
    writeManifestOf(c.dir, m);
    const dots = await approve(c.dir);
    expect(dots.code).toBe(2);
    expect(dots.stderr).toContain('which contains ".."');
    expect(readFileSync(c.victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it("a report's PDF replaced by a link to a file outside: refused by name, the file outside unchanged", async () => {
    const c = newCase();
    rmSync(join(c.dir, `${OKAFOR}.pdf`));
    symlinkSync(c.victim, join(c.dir, `${OKAFOR}.pdf`));
    const r = await approve(c.dir, ['--deliver', c.outbox]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${OKAFOR}.pdf in ${c.dir} is a symbolic link, not a regular file`);
    expect(readFileSync(c.victim, 'utf8')).toBe(VICTIM_TEXT);
    expect(existsSync(c.outbox)).toBe(false);
  });
});

describe("a report's JSON is read as a regular file only, never quoted", () => {
  it('a FIFO in its place: review and approve refuse at once, naming it (no hang)', async () => {
    const c = newCase();
    rmSync(join(c.dir, `${OKAFOR}.json`));
    execFileSync('mkfifo', [join(c.dir, `${OKAFOR}.json`)]);
    // Nothing ever writes into the FIFO: a reader that opened it blocking would never return.
    for (const r of [await runCli(['review', c.dir]), await approve(c.dir)]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${OKAFOR}.json in ${c.dir} is a FIFO, not a regular file`);
    }
  });

  it('a link to a secret: refused, and the secret never appears', async () => {
    const c = newCase();
    const secret = join(c.root, 'env');
    writeFileSync(secret, `${SECRET}\n`);
    rmSync(join(c.dir, `${OKAFOR}.json`));
    symlinkSync(secret, join(c.dir, `${OKAFOR}.json`));
    const r = await runCli(['review', c.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a symbolic link');
    expect(r.stdout + r.stderr).not.toContain('hunter2');
  });

  it('a JSON file that is not JSON is named without quoting its content', async () => {
    const c = newCase();
    writeFileSync(join(c.dir, `${OKAFOR}.json`), `${SECRET} {`);
    const r = await runCli(['review', c.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${OKAFOR}.json: not valid JSON`);
    expect(r.stdout + r.stderr).not.toContain('hunter2');
  });
});

describe('delivery refuses links and removes only what it delivered', () => {
  it("a client's PDF or web page in the delivery folder that is a link: refused before anything is decided; the file it points at unchanged", async () => {
    // The web page (issue 38) is delivered beside the PDF: a link at its name is refused alike.
    for (const ext of ['pdf', 'html']) {
      const c = newCase();
      mkdirSync(join(c.outbox, 'okafor-household'), { recursive: true });
      symlinkSync(c.victim, join(c.outbox, 'okafor-household', `${OKAFOR}.${ext}`));
      const before = readFileSync(join(c.dir, MANIFEST_FILE), 'utf8');
      const r = await approve(c.dir, ['--deliver', c.outbox]);
      expect(r.code, ext).toBe(2);
      expect(r.stderr).toContain(`delivery: ${join(c.outbox, 'okafor-household', `${OKAFOR}.${ext}`)} is a symbolic link, not a regular file`);
      expectNoStack(r.stderr);
      expect(readFileSync(c.victim, 'utf8')).toBe(VICTIM_TEXT);
      expect(readFileSync(join(c.dir, MANIFEST_FILE), 'utf8')).toBe(before);
    }
  });

  it("a client's folder that is a link elsewhere: refused; nothing written into the folder it points at", async () => {
    const c = newCase();
    mkdirSync(c.outbox);
    symlinkSync(c.victimDir, join(c.outbox, 'okafor-household'));
    const r = await approve(c.dir, ['--deliver', c.outbox]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`delivery: ${join(c.outbox, 'okafor-household')} is a symbolic link, not a folder`);
    expect(readdirSync(c.victimDir)).toEqual(['important-2026-10-31.pdf']);
    expect(readFileSync(c.victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('a delivery folder that is a link: refused', async () => {
    const c = newCase();
    symlinkSync(c.victimDir, c.outbox);
    const r = await approve(c.dir, ['--deliver', c.outbox]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--deliver ${c.outbox}: ${c.outbox} is a symbolic link`);
    expect(readdirSync(c.victimDir)).toEqual(['important-2026-10-31.pdf']);
  });

  it('a rejection takes back only the copy delivery wrote (a file the client added stays); an edited record cannot point outside', async () => {
    const c = newCase();
    const ok = await approve(c.dir, ['--deliver', c.outbox]);
    expect(ok.code, ok.stderr).toBe(0);
    const record = JSON.parse(readFileSync(join(c.outbox, DELIVERY_RECORD), 'utf8'));
    expect(record.files.map((f: { client: string; name: string }) => `${f.client}/${f.name}`).sort()).toEqual(['moreau-family/moreau-family-2026-10-31.html', 'moreau-family/moreau-family-2026-10-31.pdf', `okafor-household/${OKAFOR}.html`, `okafor-household/${OKAFOR}.pdf`]);
    const notes = join(c.outbox, 'okafor-household', 'notes.txt');
    writeFileSync(notes, 'the client keeps this\n');

    // Someone edits the record to point at the victim: the next command refuses it, naming the entry, and deletes nothing.
    const edited = { ...record, files: [...record.files, { ...record.files[0], client: '..', name: 'victim' }, { ...record.files[0], client: 'x', name: '../../victim/important-2026-10-31.pdf' }] };
    writeFileSync(join(c.outbox, DELIVERY_RECORD), JSON.stringify(edited));
    const refused = await runCli(['reject', c.dir, '--portfolio', 'Okafor Household', '--by', REVIEWER, '--reason', 'wrong month', '--db', 'off']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/\.svc-report-delivery\.json lists "\.\.", which contains "\.\."/);
    expect(readFileSync(c.victim, 'utf8')).toBe(VICTIM_TEXT);
    expect(existsSync(join(c.outbox, 'okafor-household', `${OKAFOR}.pdf`))).toBe(true);

    writeFileSync(join(c.outbox, DELIVERY_RECORD), JSON.stringify(record));
    const rejected = await runCli(['reject', c.dir, '--portfolio', 'Okafor Household', '--by', REVIEWER, '--reason', 'wrong month', '--db', 'off']);
    expect(rejected.code, rejected.stderr).toBe(0);
    for (const ext of ['pdf', 'html']) expect(rejected.stderr).toContain(`Taken back from the delivery: ${join(c.outbox, 'okafor-household', `${OKAFOR}.${ext}`)}.`);
    expect(readdirSync(join(c.outbox, 'okafor-household'))).toEqual(['notes.txt']);
    expect(readdirSync(join(c.outbox, 'moreau-family')).sort()).toEqual(['moreau-family-2026-10-31.html', 'moreau-family-2026-10-31.pdf']);
    expect(JSON.parse(readFileSync(join(c.outbox, DELIVERY_RECORD), 'utf8')).files.map((f: { client: string }) => f.client)).toEqual(['moreau-family', 'moreau-family']);
  }, SLOW);
});

describe('history import verifies each folder before recording anything from it', () => {
  it('a tampered file, or a value out of range under a manifest rewritten to match, is refused by folder; nothing is recorded', async () => {
    const db = join(work, 'history-db');
    const tampered = newCase().dir;
    const jsonFile = join(tampered, `${OKAFOR}.json`);
    const doc = JSON.parse(readFileSync(jsonFile, 'utf8'));
    doc.summary.current_value = 1;
    writeFileSync(jsonFile, JSON.stringify(doc));
    const t = await runCli(['history', 'import', tampered, '--db', db]);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain(`${tampered} refused, nothing imported: it does not verify (${OKAFOR}.json changed since the run wrote it)`);
    expect(existsSync(db)).toBe(false);

    const huge = newCase().dir;
    const hugeFile = join(huge, `${OKAFOR}.json`);
    const hugeDoc = JSON.parse(readFileSync(hugeFile, 'utf8'));
    hugeDoc.summary.current_value = -5e300;
    const bytes = Buffer.from(JSON.stringify(hugeDoc));
    writeFileSync(hugeFile, bytes);
    // Whoever can write the folder can rewrite an unsigned manifest to match: the range check still refuses.
    const m = manifestOf(huge);
    m.files = m.files.map((f: { name: string }) => (f.name === `${OKAFOR}.json` ? { ...f, sha256: sha256(bytes), bytes: bytes.length } : f));
    writeManifestOf(huge, m);
    const h = await runCli(['history', 'import', huge, '--db', db]);
    expect(h.code).toBe(2);
    expect(h.stderr).toContain(`${huge} refused, nothing imported: ${OKAFOR}.json: summary.current_value is negative (-5.00e+300); amounts are never below 0`);
    expect(existsSync(db)).toBe(false);

    // With the firm's manifest key configured, a folder whose manifest is not signed under it is refused too.
    const unsigned = newCase().dir;
    const k = await runCli(['history', 'import', unsigned, '--db', db], { SVC_MANIFEST_KEY: 'a-test-manifest-key-of-at-least-32-bytes-0123456789' });
    expect(k.code).toBe(2);
    expect(k.stderr).toContain(`${unsigned} refused, nothing imported: it does not verify (SIGNATURE manifest.json: it is unsigned, but a manifest key is configured (SVC_MANIFEST_KEY)`);
    expect(existsSync(db)).toBe(false);

    // The untouched folder imports.
    const good = await runCli(['history', 'import', newCase().dir, '--db', db]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Okafor Household 2026-10-31: /);
  }, SLOW);
});
