/**
 * Checks a signed PDF the way a client's reader does, independently of how it was signed: every
 * signature dictionary's ByteRange must cover the whole file but its Contents (nothing appended
 * or changed after the last signature), the CMS's message digest must be the SHA-256 of those
 * bytes, the signature over the signed attributes must verify with the signer's certificate, the
 * signing-certificate-v2 attribute must name that certificate, and the certificate must chain to
 * a CA the firm gives (--ca). An RFC 3161 timestamp, when present, must be over the signature
 * value and carry a valid signature of its authority (chaining to --ca as well). Each failure is
 * a sentence naming what is wrong. `verify DIR` and `verify FILE.pdf` both check with this.
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
  /** The signing time the signature dictionary claims (/M), ISO 8601, when it has one. */
  claimedAt?: string;
  /** The timestamp token's time and authority, when it carries one. */
  timestamp?: { at: string; authority: string };
}

/** The signatures in a PDF (ByteRange and Contents of each signature dictionary, and whether the gap is exactly the Contents). */
export function findSignatures(pdf: Buffer): { byteRange: number[]; contents: Buffer; gapIsContents: boolean; claimedAt?: string }[] {
  const text = pdf.toString('latin1');
  const found: { byteRange: number[]; contents: Buffer; gapIsContents: boolean; claimedAt?: string }[] = [];
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const byteRange = m.slice(1, 5).map(Number);
    const gap = text.slice(byteRange[1]!, byteRange[2]!);
    const hex = /^<([0-9A-Fa-f]*)>/.exec(gap);
    const claimed = /^[^]*?\/M\s*\(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(text.slice(byteRange[2]!, byteRange[2]! + 4096).split('>>')[0] ?? '');
    found.push({
      byteRange,
      contents: Buffer.from(hex?.[1] ?? '', 'hex'),
      gapIsContents: hex !== null && hex[0].length === gap.length,
      ...(claimed ? { claimedAt: `${claimed[1]}-${claimed[2]}-${claimed[3]}T${claimed[4]}:${claimed[5]}:${claimed[6]}Z` } : {}),
    });
  }
  return found;
}

/** Checks each signature of the PDF; no signature at all is a problem too. */
export function checkPdfSignatures(pdf: Buffer, cas: readonly X509Certificate[] | undefined): SignatureCheck[] {
  const signatures = findSignatures(pdf);
  if (signatures.length === 0) return [{ problems: ['it carries no signature'], timestamped: false }];
  return signatures.map((s) => ({ ...checkOne(pdf, s.byteRange, s.contents, cas, s.gapIsContents), ...(s.claimedAt ? { claimedAt: s.claimedAt } : {}) }));
}

/** A CMS SignedData's certificates, its (first) signer's certificate and signer info, or why they cannot be read. */
function signerOf(signedData: Node[]): { certificates: X509Certificate[]; signer?: X509Certificate; signerInfo: Node[] } {
  const certificates = kids(signedData.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0)).map((n) => new X509Certificate(der(n)));
  const signerInfo = kids(kids(signedData[signedData.length - 1])[0]);
  const sid = kids(signerInfo[1]);
  const serial = Buffer.from(String(sid[1]?.value ?? ''), 'binary').toString('hex').replace(/^00/, '').toUpperCase();
  const signer = certificates.find((x) => x.serialNumber.replace(/^00/, '').toUpperCase() === serial);
  return { certificates, signer, signerInfo };
}

/**
 * A signer info's signed attributes checked: the message digest is the SHA-256 of `content`, and
 * the signature over the attributes verifies with the signer's certificate. Problems, in words.
 */
function checkSignedAttributes(signerInfo: Node[], signer: X509Certificate, content: Buffer, what: { digest: string; signature: string }): { problems: string[]; signature: Buffer; attr: (type: string) => Node | undefined } {
  const problems: string[] = [];
  const signedAttrs = signerInfo.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
  const signature = bytesOf(signerInfo.find((n, i) => i > 3 && n.type === forge.asn1.Type.OCTETSTRING && n.tagClass === forge.asn1.Class.UNIVERSAL));
  const attr = (type: string) => kids(kids(signedAttrs).find((x) => oidOf(kids(x)[0]) === type)).at(1);
  const digest = bytesOf(kids(attr(OID.messageDigest))[0]);
  if (!digest.equals(createHash('sha256').update(content).digest())) problems.push(what.digest);
  // The signature covers the signed attributes as a DER SET (tag 0x31), not as the [0] they are stored under.
  const attrsDer = der(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, kids(signedAttrs)));
  let verified = false;
  try {
    verified = verify('sha256', attrsDer, signer.publicKey, signature);
  } catch {
    verified = false;
  }
  if (!verified) problems.push(what.signature);
  return { problems, signature, attr };
}

function checkOne(pdf: Buffer, br: number[], contents: Buffer, cas: readonly X509Certificate[] | undefined, gapIsContents = true): SignatureCheck {
  const problems: string[] = [];
  const [a, b, c, d] = br as [number, number, number, number];
  if (a !== 0 || c + d !== pdf.length || b > c) problems.push(c + d < pdf.length ? 'the file was changed after it was signed (bytes added after the signed part: an incremental update or anything appended)' : 'its ByteRange does not cover the whole file');
  else if (!gapIsContents) problems.push('its ByteRange leaves out more than the signature itself (unsigned bytes in the file)');
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  let signedData: Node[];
  let who: ReturnType<typeof signerOf>;
  try {
    const contentInfo = kids(parse(contents));
    if (oidOf(contentInfo[0]) !== OID.signedData) throw new Error('not SignedData');
    signedData = kids(kids(contentInfo[1])[0]);
    who = signerOf(signedData);
  } catch {
    return { problems: [...problems, 'its signature is not a readable CMS (damaged)'], timestamped: false };
  }
  const { certificates, signer, signerInfo } = who;
  const hasSignedAttrs = signerInfo.some((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
  if (!hasSignedAttrs || !signer) return { problems: [...problems, 'its signature names no signer certificate it carries'], timestamped: false };
  const checked = checkSignedAttributes(signerInfo, signer, signed, {
    digest: 'the document was modified after signing: its digest does not match the signature',
    signature: "the signature does not verify with the signer's certificate",
  });
  problems.push(...checked.problems);
  // SigningCertificateV2 { certs { ESSCertIDv2 { [hashAlgorithm], certHash, … } } }
  const essCertId = kids(kids(kids(checked.attr(OID.signingCertificateV2))[0])[0])[0];
  const essHash = bytesOf(kids(essCertId).find((n) => n.type === forge.asn1.Type.OCTETSTRING));
  if (!essHash.equals(createHash('sha256').update(signer.raw).digest())) problems.push('its signing-certificate-v2 attribute does not name the signer certificate (not a PAdES baseline signature)');
  if (cas) {
    const chainProblem = chainTo(signer, certificates, cas);
    if (chainProblem) problems.push(chainProblem);
  }
  const unsignedAttrs = signerInfo.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 1);
  const token = kids(kids(unsignedAttrs).find((x) => oidOf(kids(x)[0]) === OID.timeStampToken)).at(1);
  // The attribute's value is a SET holding the token (a ContentInfo).
  const stamp = token ? checkTimestamp(kids(token)[0], checked.signature, cas) : undefined;
  if (stamp) problems.push(...stamp.problems);
  return { problems, signer: signer.subject.replace(/\n/g, ', '), timestamped: token !== undefined, ...(stamp?.at ? { timestamp: { at: stamp.at, authority: stamp.authority ?? 'unknown' } } : {}) };
}

/**
 * An RFC 3161 token over the signature value: its imprint must be the SHA-256 of that value, its
 * own signature (the authority's, over TSTInfo) must verify, and with --ca its certificate must
 * chain there too. Its time and authority, for the reader.
 */
function checkTimestamp(token: Node | undefined, signatureValue: Buffer, cas: readonly X509Certificate[] | undefined): { problems: string[]; at?: string; authority?: string } {
  const problems: string[] = [];
  let signedData: Node[];
  let eContent: Buffer;
  let tstInfo: Node[];
  try {
    signedData = kids(kids(kids(token)[1])[0]);
    // encapContentInfo { eContentType, [0] EXPLICIT OCTET STRING }
    eContent = bytesOf(kids(kids(signedData[2])[1])[0]);
    tstInfo = kids(parse(eContent));
  } catch {
    return { problems: ['its timestamp is not a readable RFC 3161 token (damaged)'] };
  }
  // TSTInfo { version, policy, messageImprint { algorithm, hashedMessage }, serialNumber, genTime, … }
  const imprint = bytesOf(kids(tstInfo[2])[1]);
  if (!imprint.equals(createHash('sha256').update(signatureValue).digest())) problems.push('its timestamp is not over this signature');
  const at = generalizedTime(typeof tstInfo[4]?.value === 'string' ? tstInfo[4].value : '');
  let who: ReturnType<typeof signerOf>;
  try {
    who = signerOf(signedData);
  } catch {
    return { problems: [...problems, "its timestamp's signature cannot be read (damaged)"], at };
  }
  if (!who.signer) return { problems: [...problems, 'its timestamp carries no certificate of the authority that signed it'], at };
  const checked = checkSignedAttributes(who.signerInfo, who.signer, eContent, {
    digest: "its timestamp's content does not match the authority's signature (altered)",
    signature: "its timestamp's signature does not verify with the authority's certificate",
  });
  problems.push(...checked.problems);
  if (cas) {
    const chainProblem = chainTo(who.signer, who.certificates, cas);
    if (chainProblem) problems.push(`its timestamp: ${chainProblem.replace("the signer's certificate", "the authority's certificate")}`);
  }
  return { problems, at, authority: who.signer.subject.replace(/\n/g, ', ') };
}

/** "20261127174000Z" (or with fractions) as ISO 8601. */
function generalizedTime(v: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(v);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}Z` : undefined;
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
