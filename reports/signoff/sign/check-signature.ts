/**
 * Checks a signed PDF the way a client's reader does, independently of how it was signed: every
 * signature dictionary's ByteRange must cover the whole file but its Contents (nothing appended
 * or changed after the last signature), the CMS's message digest must be the SHA-256 of those
 * bytes, the signature over the signed attributes must verify with the signer's certificate, the
 * signing-certificate-v2 attribute must name that certificate, and the certificate must chain to
 * a CA the firm gives (--ca). Each failure is a sentence naming what is wrong.
 */
import { createHash, verify, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { der, OID, parse } from './cades';

type Node = forge.asn1.Asn1;
const kids = (n: Node | undefined): Node[] => (Array.isArray(n?.value) ? (n.value as Node[]) : []);
const bytesOf = (n: Node | undefined): Buffer => Buffer.from(typeof n?.value === 'string' ? n.value : '', 'binary');
const oidOf = (n: Node | undefined) => (n && typeof n.value === 'string' ? forge.asn1.derToOid(n.value) : '');

export interface SignatureCheck {
  /** Problems found; empty when the signature holds. */
  problems: string[];
  signer?: string;
  /** True when the CMS carries an RFC 3161 signature-time-stamp token. */
  timestamped: boolean;
}

/** The signatures in a PDF (ByteRange and Contents of each signature dictionary). */
export function findSignatures(pdf: Buffer): { byteRange: number[]; contents: Buffer }[] {
  const text = pdf.toString('latin1');
  const found: { byteRange: number[]; contents: Buffer }[] = [];
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const byteRange = m.slice(1, 5).map(Number);
    const hex = /^<([0-9A-Fa-f]*)>/.exec(text.slice(byteRange[1]!, byteRange[2]!));
    found.push({ byteRange, contents: Buffer.from(hex?.[1] ?? '', 'hex') });
  }
  return found;
}

/** Checks each signature of the PDF; no signature at all is a problem too. */
export function checkPdfSignatures(pdf: Buffer, cas: readonly X509Certificate[] | undefined): SignatureCheck[] {
  const signatures = findSignatures(pdf);
  if (signatures.length === 0) return [{ problems: ['it carries no signature'], timestamped: false }];
  return signatures.map((s) => checkOne(pdf, s.byteRange, s.contents, cas));
}

function checkOne(pdf: Buffer, br: number[], contents: Buffer, cas: readonly X509Certificate[] | undefined): SignatureCheck {
  const problems: string[] = [];
  const [a, b, c, d] = br as [number, number, number, number];
  if (a !== 0 || c + d !== pdf.length || b > c) problems.push(c + d < pdf.length ? 'the file was changed after it was signed (bytes added after the signed part)' : 'its ByteRange does not cover the whole file');
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  let signedData: Node[];
  try {
    const contentInfo = kids(parse(contents));
    if (oidOf(contentInfo[0]) !== OID.signedData) throw new Error('not SignedData');
    signedData = kids(kids(contentInfo[1])[0]);
  } catch {
    return { problems: [...problems, 'its signature is not a readable CMS (damaged)'], timestamped: false };
  }
  const certificates = kids(signedData.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0)).map((n) => new X509Certificate(der(n)));
  const signerInfo = kids(kids(signedData[signedData.length - 1])[0]);
  const signedAttrs = signerInfo.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
  const unsignedAttrs = signerInfo.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 1);
  const signature = bytesOf(signerInfo.find((n, i) => i > 3 && n.type === forge.asn1.Type.OCTETSTRING && n.tagClass === forge.asn1.Class.UNIVERSAL));
  const attr = (type: string) => kids(kids(signedAttrs).find((x) => oidOf(kids(x)[0]) === type)).at(1);
  const sid = kids(signerInfo[1]);
  const serial = Buffer.from(String(sid[1]?.value ?? ''), 'binary').toString('hex').replace(/^00/, '').toUpperCase();
  const signer = certificates.find((x) => x.serialNumber.replace(/^00/, '').toUpperCase() === serial);
  if (!signedAttrs || !signer) return { problems: [...problems, 'its signature names no signer certificate it carries'], timestamped: false };
  const digest = bytesOf(kids(attr(OID.messageDigest))[0]);
  if (!digest.equals(createHash('sha256').update(signed).digest())) problems.push('the document was modified after signing: its digest does not match the signature');
  // The signature covers the signed attributes as a DER SET (tag 0x31), not as the [0] they are stored under.
  const attrsDer = der(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, kids(signedAttrs)));
  if (!verify('sha256', attrsDer, signer.publicKey, signature)) problems.push("the signature does not verify with the signer's certificate");
  // SigningCertificateV2 { certs { ESSCertIDv2 { [hashAlgorithm], certHash, … } } }
  const essCertId = kids(kids(kids(attr(OID.signingCertificateV2))[0])[0])[0];
  const essHash = bytesOf(kids(essCertId).find((n) => n.type === forge.asn1.Type.OCTETSTRING));
  if (!essHash.equals(createHash('sha256').update(signer.raw).digest())) problems.push('its signing-certificate-v2 attribute does not name the signer certificate (not a PAdES baseline signature)');
  if (cas) {
    const chainProblem = chainTo(signer, certificates, cas);
    if (chainProblem) problems.push(chainProblem);
  }
  const token = kids(kids(unsignedAttrs).find((x) => oidOf(kids(x)[0]) === OID.timeStampToken)).at(1);
  if (token) {
    const imprint = timestampImprint(kids(token)[0]);
    if (!imprint?.equals(createHash('sha256').update(signature).digest())) problems.push('its timestamp is not over this signature');
  }
  return { problems, signer: signer.subject.replace(/\n/g, ', '), timestamped: token !== undefined };
}

/** Why the certificate does not chain to one of the CAs (via the certificates the CMS carries), or undefined. */
export function chainTo(leaf: X509Certificate, carried: readonly X509Certificate[], cas: readonly X509Certificate[], at = new Date()): string | undefined {
  let current = leaf;
  for (let depth = 0; depth < 8; depth++) {
    if (new Date(current.validTo) < at || new Date(current.validFrom) > at) return `the certificate "${current.subject.replace(/\n/g, ', ')}" is not valid now (${current.validFrom} to ${current.validTo})`;
    const anchor = cas.find((ca) => current.checkIssued(ca) && current.verify(ca.publicKey));
    if (anchor) return undefined;
    const issuer = carried.find((x) => x !== current && current.checkIssued(x) && current.verify(x.publicKey) && x.ca);
    if (!issuer) return `the signer's certificate does not chain to a CA in --ca (issuer "${current.issuer.replace(/\n/g, ', ')}")`;
    current = issuer;
  }
  return 'the certificate chain is too long';
}

/**
 * The hashed message of a timestamp token's TSTInfo (ContentInfo → SignedData → eContent →
 * TSTInfo { version, policy, messageImprint { algorithm, hashedMessage }, … }), or undefined.
 */
function timestampImprint(token: Node | undefined): Buffer | undefined {
  try {
    const signedData = kids(kids(kids(token)[1])[0]);
    // encapContentInfo { eContentType, [0] EXPLICIT OCTET STRING }
    const eContent = bytesOf(kids(kids(signedData[2])[1])[0]);
    const tstInfo = kids(parse(eContent));
    return bytesOf(kids(tstInfo[2])[1]);
  } catch {
    return undefined;
  }
}
