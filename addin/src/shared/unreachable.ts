/** The service client's error fields this reads (src/client/errors.ts ServiceError). */
interface ErrorLike {
  name?: string;
  status?: number;
}

/**
 * Whether a failure means the host or the service could not be reached (no connection, a
 * timeout, the host's or the service's 5xx) rather than a refusal (unknown asset, tier, budget,
 * sign-in): only then may a cell show its last known answer.
 */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & ErrorLike;
  return e.name === 'ConnectionError' || e.name === 'TimeoutError' || (e.status !== undefined && e.status >= 500);
}
