/**
 * The firm's manifest key: what signs a run's manifest.json (manifest-signature.ts) and what
 * `verify` checks it with. From `--manifest-key FILE`, else SVC_MANIFEST_KEY (the key itself),
 * else `manifest_key_file` in the config; none: manifests are written unsigned. The key is never
 * printed, logged or written: only its id (manifestKeyId) is.
 */
import { Option } from 'commander';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../src/holdings/types';
import { readConfigFile } from './config';

/** At least this many bytes: an HMAC key shorter than its hash's 32 bytes is weaker than the hash. */
export const MIN_MANIFEST_KEY_BYTES = 32;

export interface ManifestKey {
  secret: Buffer;
  /** Names the key without revealing it: the first 16 hex digits of a SHA-256 of it. */
  id: string;
  /** Where it came from, for messages (never the key). */
  from: string;
}

export interface ManifestKeyFlags {
  manifestKey?: string;
  config?: string;
}

export function manifestKeyId(secret: Buffer): string {
  return createHash('sha256').update('svc-report manifest key id\n').update(secret).digest('hex').slice(0, 16);
}

/** The configured key, or undefined when none is; a key too short or a file that cannot be read is refused (exit 2), without quoting it. */
export function resolveManifestKey(flags: ManifestKeyFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ManifestKey | undefined {
  if (flags.manifestKey !== undefined) return fromFile(resolve(cwd, flags.manifestKey), '--manifest-key');
  const inEnv = env.SVC_MANIFEST_KEY?.trim();
  if (inEnv) return checked(Buffer.from(inEnv, 'utf8'), 'SVC_MANIFEST_KEY');
  const file = readConfigFile(flags.config, cwd).manifest_key_file;
  return file === undefined ? undefined : fromFile(resolve(cwd, file), 'manifest_key_file in the config');
}

function fromFile(path: string, from: string): ManifestKey {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'it cannot be read';
    throw new InputError(`${from}: cannot read the manifest key file ${path}: ${why}`);
  }
  return checked(Buffer.from(text.trim(), 'utf8'), `${from} (${path})`);
}

function checked(secret: Buffer, from: string): ManifestKey {
  if (secret.length < MIN_MANIFEST_KEY_BYTES) {
    throw new InputError(`${from}: the manifest key must be at least ${MIN_MANIFEST_KEY_BYTES} bytes (e.g. \`openssl rand -hex 32\`); it is not printed here`);
  }
  return { secret, id: manifestKeyId(secret), from };
}

/** The option naming the key's file, for every command that writes or checks a manifest. */
export const manifestKeyOption = () =>
  new Option('--manifest-key <file>', "a file holding the firm's manifest key: manifest.json is signed with it (HMAC-SHA-256) and verify checks the signature (default: SVC_MANIFEST_KEY, else manifest_key_file in the config, else unsigned)");
