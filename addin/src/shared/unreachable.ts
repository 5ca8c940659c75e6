import { ConnectionError, TimeoutError } from '../../../src/client/errors';

/** The error fields this reads besides the class (src/client/errors.ts ServiceError). */
interface ErrorLike {
  name?: string;
  status?: number;
}

/**
 * Whether a failure means the host or the service could not be reached (no connection, a
 * timeout, the host's or the service's 5xx) rather than a refusal (unknown asset, tier, budget,
 * sign-in): only then may a cell show its last known answer. By class for the client's errors;
 * by name for the add-in's own (the settle deadline, the host's status), which the bundle keeps
 * through minification (keepNames in addin/build/build.ts).
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  if (!(err instanceof Error)) return false;
  const e = err as Error & ErrorLike;
  return e.name === 'ConnectionError' || e.name === 'TimeoutError' || (e.status !== undefined && e.status >= 500);
}
