import { createHmac, timingSafeEqual } from 'node:crypto';
import canonicalize from 'canonicalize';

/** A value as it is stored in Redis: the data and its MAC (hex). */
export interface Signed<T> {
  d: T;
  m: string;
}

/**
 * HMAC-SHA-256 under the queue secret over the canonical JSON (RFC 8785, `canonicalize`) of
 * [purpose, data]. The purpose binds a MAC to where the value belongs (a job id, a journal
 * field of one run and portfolio): a signed value copied to another job, holding or run does
 * not verify. Canonical JSON: the MAC does not depend on key order or on how Redis or BullMQ
 * re-serialise the data.
 */
export class QueueSigner {
  readonly #secret: Buffer;

  constructor(secret: string) {
    this.#secret = Buffer.from(secret, 'utf8');
  }

  mac(purpose: string, data: unknown): string {
    return createHmac('sha256', this.#secret).update(canonicalize([purpose, data]) ?? '').digest('hex');
  }

  sign<T>(purpose: string, data: T): Signed<T> {
    return { d: data, m: this.mac(purpose, data) };
  }

  /** Constant-time: the comparison's time does not tell a forger how much of a MAC was right. */
  verifies(purpose: string, data: unknown, mac: unknown): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(this.mac(purpose, data), 'hex'), Buffer.from(mac, 'hex'));
  }

  /** A stored value ({d, m}) whose MAC verifies for `purpose`: its data; anything else: undefined. */
  open(purpose: string, stored: unknown): { data: unknown } | undefined {
    if (typeof stored !== 'object' || stored === null || !('d' in stored) || !('m' in stored)) return undefined;
    return this.verifies(purpose, stored.d, stored.m) ? { data: stored.d } : undefined;
  }
}
