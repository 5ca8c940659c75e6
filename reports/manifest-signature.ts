/**
 * manifest.json's signature: `signature: { alg, key_id, value }`, an HMAC-SHA-256 under the
 * firm's manifest key (manifest-key.ts) of the manifest's canonical form without its signature
 * (keys sorted at every level, no spaces: the bytes do not depend on how the file was indented).
 * `alg` leaves room for other kinds (a signing certificate): a verifier that does not know an
 * alg says so and fails.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ManifestKey } from './manifest-key';

export const HMAC_ALG = 'HMAC-SHA-256';

export interface ManifestSignature {
  alg: string;
  key_id: string;
  value: string;
}

/** JSON with every object's keys sorted: the same manifest gives the same bytes however it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function hmac(key: ManifestKey, unsigned: object): string {
  return createHmac('sha256', key.secret).update(canonicalJson(unsigned)).digest('hex');
}

export function signManifest<M extends object>(manifest: M, key: ManifestKey): M & { signature: ManifestSignature } {
  const { signature: _old, ...unsigned } = manifest as M & { signature?: unknown };
  return { ...(unsigned as M), signature: { alg: HMAC_ALG, key_id: key.id, value: hmac(key, unsigned) } };
}

export type SignatureCheck =
  | { state: 'valid'; keyId: string }
  | { state: 'unsigned' }
  | { state: 'no-key'; keyId: string }
  | { state: 'invalid'; why: string };

/** Checks a manifest as read from its file (the raw document, not a parsed copy that could drop fields) against the configured key, if any. */
export function checkManifestSignature(doc: Record<string, unknown>, key: ManifestKey | undefined): SignatureCheck {
  const { signature, ...unsigned } = doc;
  if (signature === undefined) return key ? { state: 'invalid', why: `it is unsigned, but a manifest key is configured (${key.from}): it was written, or rewritten, without the key` } : { state: 'unsigned' };
  const s = signature as ManifestSignature;
  if (s.alg !== HMAC_ALG) return { state: 'invalid', why: `its signature's alg "${s.alg}" is not one this version checks (${HMAC_ALG})` };
  if (!key) return { state: 'no-key', keyId: s.key_id };
  if (s.key_id !== key.id) return { state: 'invalid', why: `it is signed with another key (key_id ${s.key_id}), not the configured one (key_id ${key.id})` };
  const expected = Buffer.from(hmac(key, unsigned), 'hex');
  const given = /^[0-9a-f]{64}$/.test(s.value) ? Buffer.from(s.value, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { state: 'invalid', why: 'its signature does not verify under the configured key: the manifest was changed after it was signed' };
  return { state: 'valid', keyId: s.key_id };
}
