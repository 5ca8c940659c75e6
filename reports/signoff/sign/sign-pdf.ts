/**
 * Signs one report PDF in place: the signature field as an incremental update
 * (signature-field.ts), then @signpdf/signpdf computes the ByteRange and puts our CAdES CMS
 * (cades.ts) into the Contents placeholder. Written atomically: the file is either the report
 * as it was or the signed report.
 */
import { promises as fs } from 'node:fs';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import { writeAtomically } from '../../writers/atomic-write';
import { cadesSignature, type CadesOptions } from './cades';
import { withSignatureField, type SignatureFieldOptions } from './signature-field';
import type { SigningKey } from './signing-key';

class CadesSigner extends Signer {
  constructor(
    private readonly key: SigningKey,
    private readonly options: CadesOptions,
  ) {
    super();
  }

  override sign(content: Buffer): Promise<Buffer> {
    return cadesSignature(content, this.key, this.options);
  }
}

export async function signPdfBytes(bytes: Buffer, key: SigningKey, field: SignatureFieldOptions, options: CadesOptions = {}): Promise<Buffer> {
  const placeheld = withSignatureField(bytes, field);
  const signed = await new SignPdf().sign(placeheld, new CadesSigner(key, options));
  // @signpdf drops the final newline before computing the ranges; the file ends at %%EOF, as signed.
  return signed;
}

export async function signPdfFile(file: string, key: SigningKey, field: SignatureFieldOptions, options: CadesOptions = {}): Promise<void> {
  const signed = await signPdfBytes(await fs.readFile(file), key, field, options);
  await writeAtomically(file, (temp) => fs.writeFile(temp, signed));
}
