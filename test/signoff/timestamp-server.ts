/**
 * A local RFC 3161 timestamp authority for tests: a node HTTP server that hands each
 * application/timestamp-query to `openssl ts -reply` with the test PKI's TSA certificate.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestPki } from './certificates';

const run = promisify(execFile);

export interface TimestampServer {
  url: string;
  /** Queries answered so far. */
  answered(): number;
  close(): Promise<void>;
}

export async function startTimestampServer(pki: TestPki): Promise<TimestampServer> {
  const config = join(pki.dir, 'tsa.cnf');
  await writeFile(
    config,
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `serial = ${join(pki.dir, 'tsaserial')}`,
      'crypto_device = builtin',
      `signer_cert = ${pki.tsaCert}`,
      `certs = ${pki.caCert}`,
      `signer_key = ${pki.tsaKey}`,
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  await writeFile(join(pki.dir, 'tsaserial'), '01\n');
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const id = ++n;
      const query = join(pki.dir, `q${id}.tsq`);
      const reply = join(pki.dir, `r${id}.tsr`);
      try {
        await writeFile(query, Buffer.concat(chunks));
        await run('openssl', ['ts', '-reply', '-config', config, '-queryfile', query, '-out', reply]);
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(await readFile(reply));
      } catch (e) {
        res.writeHead(500).end(String(e));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/tsa`, answered: () => n, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
