import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { HostConfigError } from './config';

/** What to do when the host has no certificate to serve with: the sentence addin:serve prints before it exits. */
export const NO_CERTIFICATE_HELP = [
  'addin:serve needs a TLS certificate Office trusts (Office loads add-ins only over HTTPS), and none was found.',
  'Either:',
  '  - set ADDIN_TLS_CERT and ADDIN_TLS_KEY to a PEM certificate and key for the name users reach the host at; or',
  '  - install the Office development certificate once: npx office-addin-dev-certs install (it asks for the administrator password), then run addin:serve again; or',
  '  - without administrator rights, make a self-signed certificate and trust it in your browser or OS yourself (steps in docs/addin.md, "Certificates"):',
  '      openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout addin-key.pem -out addin-cert.pem',
  '      ADDIN_TLS_CERT=addin-cert.pem ADDIN_TLS_KEY=addin-key.pem npm run addin:serve',
].join('\n');

function readPem(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new HostConfigError(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}).`);
  }
}

/**
 * The certificate to serve with: ADDIN_TLS_CERT/ADDIN_TLS_KEY when given, else the Office
 * development certificate only if it is already made and trusted. It is never created or
 * installed from here: installing asks for an administrator password, which hung the host on
 * machines without sudo; the user is told how instead, and the host exits at once.
 */
/** Where office-addin-dev-certs keeps the development certificate (its defaults.ts). */
function devCertificatePaths(): { cert: string; key: string } {
  const dir = path.join(homedir(), '.office-addin-dev-certs');
  return { cert: path.join(dir, 'localhost.crt'), key: path.join(dir, 'localhost.key') };
}

export async function tlsMaterial(certFile?: string, keyFile?: string): Promise<{ cert: Buffer; key: Buffer }> {
  if (certFile && keyFile) return { cert: readPem(certFile, 'ADDIN_TLS_CERT'), key: readPem(keyFile, 'ADDIN_TLS_KEY') };
  const devCerts = await import('office-addin-dev-certs');
  const files = devCertificatePaths();
  const trusted = (() => {
    try {
      return existsSync(files.cert) && existsSync(files.key) && devCerts.getCaCertificateStatus().status === devCerts.CertificateStatus.Installed && devCerts.verifyCertificates(files.cert, files.key);
    } catch {
      return false;
    }
  })();
  if (!trusted) throw new HostConfigError(NO_CERTIFICATE_HELP);
  return { cert: readFileSync(files.cert), key: readFileSync(files.key) };
}
