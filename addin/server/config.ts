import { isTierName, type TierName } from '../../src/wire';

/** The host's settings as read from the environment (docs/addin.md lists them). */
export interface HostEnvConfig {
  port: number;
  host: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  deploymentKey?: string;
  /** Undefined: start the embedded sandbox. */
  service?: { baseUrl: string; clientId: string; clientSecret: string; tier?: TierName };
}

export class HostConfigError extends Error {
  override name = 'HostConfigError';
}

export function hostConfigFromEnv(env: NodeJS.ProcessEnv): HostEnvConfig {
  const port = Number(env.ADDIN_PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new HostConfigError(`ADDIN_PORT must be a port number (got "${env.ADDIN_PORT}").`);
  if ((env.ADDIN_TLS_CERT === undefined) !== (env.ADDIN_TLS_KEY === undefined)) {
    throw new HostConfigError('ADDIN_TLS_CERT and ADDIN_TLS_KEY go together: give both PEM files, or neither to use the Office dev certificate.');
  }
  const key = env.ADDIN_DEPLOYMENT_KEY?.trim() || undefined;
  if (key !== undefined && key.length < 8) throw new HostConfigError('ADDIN_DEPLOYMENT_KEY must be at least 8 characters.');
  const config: HostEnvConfig = { port, host: env.ADDIN_HOST ?? '127.0.0.1', tlsCertFile: env.ADDIN_TLS_CERT, tlsKeyFile: env.ADDIN_TLS_KEY, deploymentKey: key };
  if (env.SVC_BASE_URL) {
    if (!/^https?:\/\//.test(env.SVC_BASE_URL)) throw new HostConfigError(`SVC_BASE_URL must be the service address including /v1, e.g. https://api.example.com/v1 (got "${env.SVC_BASE_URL}").`);
    if (!env.SVC_CLIENT_ID || !env.SVC_CLIENT_SECRET) throw new HostConfigError('SVC_BASE_URL needs SVC_CLIENT_ID and SVC_CLIENT_SECRET (the host signs in with them; the browser never sees them).');
    if (env.SVC_TIER !== undefined && !isTierName(env.SVC_TIER)) throw new HostConfigError(`SVC_TIER must be starter, pro or enterprise (got "${env.SVC_TIER}").`);
    config.service = { baseUrl: env.SVC_BASE_URL, clientId: env.SVC_CLIENT_ID, clientSecret: env.SVC_CLIENT_SECRET, tier: env.SVC_TIER as TierName | undefined };
  }
  return config;
}
