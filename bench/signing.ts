/**
 * Benchmark of approval signing (issue 25): PAdES-signing N client PDFs (default 1,000, 50
 * holdings each, as the month-end writes them: PDF/A-3a + PDF/UA-1, JSON and CSV embedded)
 * against writing those same PDFs, in the same run and process. Signing reads each file, appends
 * the signature field as an incremental update, hashes the byte ranges, builds the CAdES CMS and
 * signs with RSA-2048, and writes the file back atomically; no timestamp authority (its round
 * trip is the network's, not ours). The key is a throwaway one made with openssl in the work folder.
 *
 *   npx tsx bench/signing.ts               # prints progress, then ONE JSON line last
 *   npx tsx bench/signing.ts --pdfs 50     # fewer PDFs, to check it works
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeReportData } from '../fixtures/report-data';
import { writePdf } from '../reports/writers/pdf';
import { signPdfFile } from '../reports/signoff/sign/sign-pdf';
import { loadSigningKey } from '../reports/signoff/sign/signing-key';
import { runBench } from './support/run-bench';

const argv = process.argv.slice(2);
const count = argv[0] === '--pdfs' ? Number(argv[1]) : 1000;
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-signing-'));

const cpuMs = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function throwawayKey(dir: string, password: string): string {
  const o = (args: string[], env: NodeJS.ProcessEnv = process.env) => execFileSync('openssl', args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  o(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=Bench Signer']);
  o(['pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'bench.p12', '-passout', 'env:P12_PASSWORD'], { ...process.env, P12_PASSWORD: password });
  return path.join(dir, 'bench.p12');
}

async function main(): Promise<void> {
  if (!Number.isInteger(count) || count < 1) throw new Error('--pdfs must be a whole number above 0');
  const loadStart = os.loadavg()[0]!;
  const password = 'bench-only-password';
  const key = await loadSigningKey(throwawayKey(work, password), password);
  const dir = path.join(work, 'reports');
  mkdirSync(dir);
  const files: string[] = [];
  const writeEach: number[] = [];
  let t = performance.now();
  let cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const data = makeReportData({ holdings: 50, seed: i + 1 });
    const file = path.join(dir, `client-${String(i).padStart(4, '0')}-2026-10-31.pdf`);
    const one = performance.now();
    await writePdf(data, file);
    writeEach.push(performance.now() - one);
    files.push(file);
    if ((i + 1) % 100 === 0) console.error(`written ${i + 1}/${count}`);
  }
  const writeMs = performance.now() - t;
  const writeCpu = cpuMs(cpu);
  const signEach: number[] = [];
  const at = new Date();
  t = performance.now();
  cpu = process.cpuUsage();
  for (const [i, file] of files.entries()) {
    const one = performance.now();
    await signPdfFile(file, key, { name: 'Bench Reviewer <bench@example.com>', reason: 'Approved for the client', location: 'Bench', at });
    signEach.push(performance.now() - one);
    if ((i + 1) % 100 === 0) console.error(`signed ${i + 1}/${count}`);
  }
  const signMs = performance.now() - t;
  const signCpu = cpuMs(cpu);
  console.log(
    JSON.stringify({
      bench: 'signing',
      node: process.version,
      cpus: os.cpus().length,
      loadavg_start: +loadStart.toFixed(2),
      loadavg_end: +os.loadavg()[0]!.toFixed(2),
      pdfs: count,
      holdings_per_pdf: 50,
      write: { total_ms: Math.round(writeMs), cpu_ms: Math.round(writeCpu), median_ms: +median(writeEach).toFixed(1) },
      sign: { total_ms: Math.round(signMs), cpu_ms: Math.round(signCpu), median_ms: +median(signEach).toFixed(1) },
      sign_vs_write_percent: +((signMs / writeMs) * 100).toFixed(1),
      note: 'one process, sequential; signing = incremental update + SHA-256 + CAdES CMS + RSA-2048, no timestamp authority',
    }),
  );
  rmSync(work, { recursive: true, force: true });
}

runBench(work, main);
