/**
 * What `svc-report verify` says of a manifest's signature, and whether the folder passes on it.
 * An unsigned manifest (or one signed when no key is configured to check it) proves only that the
 * files match it, not who wrote it: said, and passed unless --require-signature.
 */
import { MANIFEST_FILE } from './run-manifest';
import type { SignatureCheck } from './manifest-signature';

export function describeSignature(check: SignatureCheck, requireSignature: boolean): { passed: boolean; line: string } {
  switch (check.state) {
    case 'valid':
      return { passed: true, line: `SIGNED   ${MANIFEST_FILE}: its signature verifies under the configured manifest key (key_id ${check.keyId})` };
    case 'invalid':
      return { passed: false, line: `SIGNATURE ${MANIFEST_FILE}: ${check.why}` };
    case 'unsigned':
      return { passed: !requireSignature, line: `${requireSignature ? 'UNSIGNED' : 'Warning:'} ${MANIFEST_FILE} is unsigned: integrity only, not authenticity (anyone who can write the folder can rewrite it; configure a manifest key, docs/report-job.md)` };
    case 'no-key':
      return {
        passed: !requireSignature,
        line: `${requireSignature ? 'UNCHECKED' : 'Warning:'} ${MANIFEST_FILE} is signed (key_id ${check.keyId}) but no manifest key is configured to check it: integrity only, not authenticity`,
      };
  }
}
