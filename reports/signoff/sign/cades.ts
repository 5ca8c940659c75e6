/**
 * The CMS a PAdES baseline signature carries (ETSI EN 319 122-1, CAdES-B with detached content):
 * SignedData over the PDF's byte ranges, signed attributes content-type, message-digest and
 * signing-certificate-v2 (the certificate's SHA-256 and issuer/serial, which binds the signer's
 * certificate into what is signed), no signing-time attribute (PAdES takes the time from the
 * signature dictionary's /M), and optionally an RFC 3161 signature-time-stamp as an unsigned
 * attribute. Built with node-forge's ASN.1 (node's crypto signs): @signpdf/signer-p12's CMS
 * (forge's pkcs7) has no signing-certificate-v2 and no unsigned attributes.
 */
import { createHash, sign } from 'node:crypto';
import forge from 'node-forge';
import type { SigningKey } from './signing-key';

const { asn1 } = forge;
const T = asn1.Type;
const C = asn1.Class;

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
} as const;

type Node = forge.asn1.Asn1;
const seq = (items: Node[]) => asn1.create(C.UNIVERSAL, T.SEQUENCE, true, items);
const set = (items: Node[]) => asn1.create(C.UNIVERSAL, T.SET, true, items);
const oid = (o: string) => asn1.create(C.UNIVERSAL, T.OID, false, asn1.oidToDer(o).getBytes());
const int = (n: number) => asn1.create(C.UNIVERSAL, T.INTEGER, false, asn1.integerToDer(n).getBytes());
const octets = (b: Buffer) => asn1.create(C.UNIVERSAL, T.OCTETSTRING, false, b.toString('binary'));
const nul = () => asn1.create(C.UNIVERSAL, T.NULL, false, '');
export const der = (n: Node) => Buffer.from(asn1.toDer(n).getBytes(), 'binary');
/** The first DER value in `b` (a signature sits in a zero-padded Contents: bytes may follow it). */
export function parse(b: Buffer): Node {
  let length = b[1] ?? 0;
  let header = 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + (b[2 + i] ?? 0);
    header += n;
  }
  return asn1.fromDer(b.subarray(0, header + length).toString('binary'));
}
const attribute = (type: string, value: Node) => seq([oid(type), set([value])]);

/** DER's SET OF: members in the order of their encodings. */
function derSetOf(items: Node[]): Node {
  const sorted = items.map((n) => ({ n, d: der(n) })).sort((a, b) => Buffer.compare(a.d, b.d));
  return set(sorted.map((x) => x.n));
}

/** A certificate's issuer Name and serialNumber, as ASN.1 nodes. */
export function issuerAndSerial(certificate: Buffer): { issuer: Node; serial: Node } {
  const tbs = (parse(certificate).value as Node[])[0]!.value as Node[];
  const v = tbs[0]!.tagClass === C.CONTEXT_SPECIFIC ? 1 : 0;
  return { serial: tbs[v]!, issuer: tbs[v + 2]! };
}

/** The signed attributes, as a DER SET (what the signature covers). */
function signedAttributes(digest: Buffer, key: SigningKey): Node {
  const { issuer, serial } = issuerAndSerial(key.certificate);
  const certHash = createHash('sha256').update(key.certificate).digest();
  // ESSCertIDv2 { hashAlgorithm DEFAULT sha256 (so omitted), certHash, issuerSerial { GeneralNames { directoryName [4] Name }, serial } }
  const essCertIdV2 = seq([octets(certHash), seq([seq([asn1.create(C.CONTEXT_SPECIFIC, 4, true, [issuer])]), serial])]);
  return derSetOf([attribute(OID.contentType, oid(OID.data)), attribute(OID.messageDigest, octets(digest)), attribute(OID.signingCertificateV2, seq([seq([essCertIdV2])]))]);
}

export interface CadesOptions {
  /** Asks an RFC 3161 authority for a token over the signature value (the DER of a ContentInfo). */
  timestamp?: (signatureValue: Buffer) => Promise<Buffer>;
}

/** The DER of a ContentInfo holding the detached CAdES SignedData over `content`. */
export async function cadesSignature(content: Buffer, key: SigningKey, options: CadesOptions = {}): Promise<Buffer> {
  const digest = createHash('sha256').update(content).digest();
  const attrs = signedAttributes(digest, key);
  const signatureValue = sign('sha256', der(attrs), key.key);
  const sha256Alg = seq([oid(OID.sha256)]);
  // In SignerInfo the signed attributes are [0] IMPLICIT: the SET's contents under another tag.
  const signedAttrsTagged = asn1.create(C.CONTEXT_SPECIFIC, 0, true, attrs.value as Node[]);
  const signerInfo: Node[] = [
    int(1),
    seq([issuerAndSerial(key.certificate).issuer, issuerAndSerial(key.certificate).serial]),
    sha256Alg,
    signedAttrsTagged,
    seq([oid(OID.rsaEncryption), nul()]),
    octets(signatureValue),
  ];
  if (options.timestamp) {
    const token = parse(await options.timestamp(signatureValue));
    signerInfo.push(asn1.create(C.CONTEXT_SPECIFIC, 1, true, [attribute(OID.timeStampToken, token)]));
  }
  const certificates = [key.certificate, ...key.chain].map(parse);
  const signedData = seq([
    int(1),
    set([seq([oid(OID.sha256)])]),
    seq([oid(OID.data)]),
    asn1.create(C.CONTEXT_SPECIFIC, 0, true, certificates),
    set([seq(signerInfo)]),
  ]);
  return der(seq([oid(OID.signedData), asn1.create(C.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}
