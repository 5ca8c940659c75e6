/**
 * An RFC 3161 timestamp over a signature value, from the authority the firm names (--tsa URL):
 * a TimeStampReq (SHA-256 imprint, a nonce, the authority's certificate asked for) POSTed as
 * application/timestamp-query; the token of a granted answer becomes the signature's
 * signature-time-stamp attribute (PAdES B-T). A refusal or an unreachable authority stops the
 * signing with the authority's URL (without credentials) and its status.
 */
import { createHash, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { UsageError } from '../../run/exit-codes';
import { publicBaseUrl } from '../../run-manifest';
import { scrubUrl } from '../../../src/redact-url';
import { der, OID, parse } from './cades';

const { asn1 } = forge;
const T = asn1.Type;
const C = asn1.Class;
type Node = forge.asn1.Asn1;

function request(imprint: Buffer, nonce: Buffer): Buffer {
  return der(
    asn1.create(C.UNIVERSAL, T.SEQUENCE, true, [
      asn1.create(C.UNIVERSAL, T.INTEGER, false, asn1.integerToDer(1).getBytes()),
      asn1.create(C.UNIVERSAL, T.SEQUENCE, true, [
        asn1.create(C.UNIVERSAL, T.SEQUENCE, true, [asn1.create(C.UNIVERSAL, T.OID, false, asn1.oidToDer(OID.sha256).getBytes())]),
        asn1.create(C.UNIVERSAL, T.OCTETSTRING, false, imprint.toString('binary')),
      ]),
      // nonce: a positive INTEGER (a leading zero byte keeps the sign bit clear)
      asn1.create(C.UNIVERSAL, T.INTEGER, false, Buffer.concat([Buffer.from([0]), nonce]).toString('binary')),
      asn1.create(C.UNIVERSAL, T.BOOLEAN, false, String.fromCharCode(0xff)),
    ]),
  );
}

/** A function that asks `url` for a timestamp token over a signature value. */
export function timestampFrom(url: string, fetchImpl: typeof fetch = fetch): (signature: Buffer) => Promise<Buffer> {
  const where = publicBaseUrl(url);
  return async (signature) => {
    const imprint = createHash('sha256').update(signature).digest();
    let answer: Response;
    try {
      answer = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: new Uint8Array(request(imprint, randomBytes(8))), signal: AbortSignal.timeout(30_000) });
    } catch (e) {
      // fetch quotes the URL it refuses (credentials in it, or unparseable): taken out.
      throw new UsageError(`--tsa ${where}: the timestamp authority could not be reached (${scrubUrl((e as Error).message, url)})`);
    }
    if (!answer.ok) throw new UsageError(`--tsa ${where}: the timestamp authority answered HTTP ${answer.status}`);
    const body = Buffer.from(await answer.arrayBuffer());
    let parts: Node[];
    try {
      parts = parse(body).value as Node[];
    } catch {
      throw new UsageError(`--tsa ${where}: the answer is not a timestamp response`);
    }
    const status = (parts[0]!.value as Node[])[0]!.value as string;
    const granted = status.length > 0 ? status.charCodeAt(status.length - 1) : -1;
    // 0 granted, 1 granted with modifications
    if ((granted !== 0 && granted !== 1) || !parts[1]) throw new UsageError(`--tsa ${where}: the timestamp authority refused (status ${granted})`);
    return der(parts[1]);
  };
}
