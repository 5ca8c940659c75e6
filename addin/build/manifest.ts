import { DEPLOYMENT_KEY_PARAM, DEPLOYMENT_KEY_RULE, isValidDeploymentKey } from '../contract/deployment-key';

/** The origin the committed manifest.xml names; the build replaces it. */
export const DEFAULT_ORIGIN = 'https://localhost:3000';

export function escapeXmlAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The manifest for one deployment: every URL moved to `origin`, and when a deployment key is
 * given, the shared page's URL carries it (the manifest reaches users only through the admin's
 * centralized deployment, so the key travels with it and nowhere else).
 */
export function rewriteManifest(xml: string, options: { origin: string; deploymentKey?: string }): string {
  const origin = new URL(options.origin).origin;
  if (!origin.startsWith('https://') && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) {
    throw new Error(`The add-in origin must be https:// (Office loads add-ins only over HTTPS); got ${options.origin}.`);
  }
  let out = xml.split(DEFAULT_ORIGIN).join(origin);
  if (options.deploymentKey) {
    if (!isValidDeploymentKey(options.deploymentKey)) throw new Error(DEPLOYMENT_KEY_RULE);
    const pageUrl = `${origin}/taskpane.html`;
    const withKey = `${pageUrl}?${DEPLOYMENT_KEY_PARAM}=${escapeXmlAttribute(options.deploymentKey)}`;
    out = out.replace(`<bt:Url id="Shared.Url" DefaultValue="${pageUrl}"/>`, `<bt:Url id="Shared.Url" DefaultValue="${withKey}"/>`);
  }
  return out;
}
