/**
 * The deployment key: one rule for the build (which writes it into the manifest's page URL), the
 * host (which must accept exactly the keys the build writes) and the page (which reads it).
 */

/** The query parameter the page reads its deployment key from (it then sends it as a header). */
export const DEPLOYMENT_KEY_PARAM = 'deployment_key';

export const DEPLOYMENT_KEY_RULE = 'The deployment key must be 8 to 200 characters of letters, digits, dot, dash, underscore or tilde.';
export function isValidDeploymentKey(key: string): boolean {
  return /^[A-Za-z0-9._~-]{8,200}$/.test(key);
}
