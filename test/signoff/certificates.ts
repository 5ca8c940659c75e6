/**
 * A throwaway PKI made with openssl in a temp folder: a root CA, the firm's signing certificate
 * and key as a PKCS#12 file (OpenSSL 3's defaults: AES-256, PBKDF2), a timestamp authority's
 * certificate, and a second, unrelated CA (a certificate that must not chain).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  caCert: string;
  otherCaCert: string;
  p12: string;
  password: string;
  tsaCert: string;
  tsaKey: string;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

function ca(dir: string, name: string, cn: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '30', '-subj', `/CN=${cn}/O=Test`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
}

function issue(dir: string, name: string, subject: string, ext: string): void {
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '30', '-extfile', `${name}.ext`]);
}

export function makePki(dir: string, password: string): TestPki {
  ca(dir, 'ca', 'Signoff Test Root CA');
  ca(dir, 'other-ca', 'Some Other CA');
  issue(dir, 'signer', '/CN=Meridian Reports/O=Meridian Wealth/emailAddress=reports@meridian.example', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n');
  issue(dir, 'tsa', '/CN=Test Timestamp Authority/O=Test', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n');
  // The password reaches openssl through its environment, never its command line.
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', 'signer.key', '-in', 'signer.crt', '-certfile', 'ca.crt', '-out', 'signer.p12', '-passout', 'env:P12_PASSWORD'], { cwd: dir, env: { ...process.env, P12_PASSWORD: password }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { dir, caCert: join(dir, 'ca.crt'), otherCaCert: join(dir, 'other-ca.crt'), p12: join(dir, 'signer.p12'), password, tsaCert: join(dir, 'tsa.crt'), tsaKey: join(dir, 'tsa.key') };
}
