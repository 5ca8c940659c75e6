/**
 * The `exp` claim of a JWT, in epoch milliseconds, read without verifying (the service
 * verifies; the client only wants to know when to renew). A service that rounds `exp` down to
 * whole seconds would otherwise see tokens used up to a second after it considers them expired.
 */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
