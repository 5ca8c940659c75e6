/**
 * The firm's signing identity from a PKCS#12 file (.p12/.pfx, as OpenSSL 3 writes it by
 * default: AES-256 and PBKDF2): the private key, its certificate and the chain the file carries.
 * node-forge reads it (node's crypto cannot open PKCS#12). Errors name the file, never the password.
 */
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import forge from 'node-forge';
import { UsageError } from '../../run/exit-codes';

export interface SigningKey {
  key: KeyObject;
  /** The signer's certificate, DER. */
  certificate: Buffer;
  /** Other certificates in the file (the chain), DER. */
  chain: Buffer[];
  subject: string;
  /** SHA-256 of the certificate's DER, hex. */
  certificateSha256: string;
}

const derOf = (cert: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

export async function loadSigningKey(file: string, password: string): Promise<SigningKey> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new UsageError(`--sign ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(bytes.toString('binary')), password);
  } catch {
    // forge's own message may quote parts of the input; ours says what to check and nothing more.
    throw new UsageError(`--sign ${file}: cannot be opened: the password is wrong or it is not a PKCS#12 file`);
  }
  const bags = (type: string): forge.pkcs12.Bag[] => p12.getBags({ bagType: type })[type] ?? [];
  const privateKey = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)].find((b) => b.key)?.key;
  if (!privateKey) throw new UsageError(`--sign ${file}: holds no RSA private key (an RSA key is required)`);
  const certs = bags(forge.pki.oids.certBag!).flatMap((b) => (b.cert ? [b.cert] : []));
  const publicKey = privateKey as forge.pki.rsa.PrivateKey;
  const own = certs.find((c) => (c.publicKey as forge.pki.rsa.PublicKey).n?.equals(publicKey.n));
  if (!own) throw new UsageError(`--sign ${file}: holds no certificate for its private key`);
  const certificate = derOf(own);
  return {
    key: createPrivateKey(forge.pki.privateKeyToPem(privateKey)),
    certificate,
    chain: certs.filter((c) => c !== own).map(derOf),
    subject: new X509Certificate(certificate).subject.replace(/\n/g, ', '),
    certificateSha256: createHash('sha256').update(certificate).digest('hex'),
  };
}
