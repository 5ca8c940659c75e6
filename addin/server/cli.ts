/**
 * npm run addin:serve: the add-in host over HTTPS. With no SVC_BASE_URL it starts the embedded
 * sandbox and signs in with its demo enterprise account, so it works on a fresh machine.
 * Builds addin/dist first when it is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, DEMO_ACCOUNTS } from '../../src/sandbox';
import { buildAddin } from '../build/build';
import { ADDIN_DIR } from '../paths';
import { hostConfigFromEnv, HostConfigError } from './config';
import { startAddinHost, type ServiceTarget } from './host';

async function tlsMaterial(certFile?: string, keyFile?: string): Promise<{ cert: Buffer; key: Buffer }> {
  if (certFile && keyFile) return { cert: readFileSync(certFile), key: readFileSync(keyFile) };
  // The Office dev certificate: created and trusted on first use (may ask for the admin password).
  const devCerts = await import('office-addin-dev-certs');
  const o = await devCerts.getHttpsServerOptions();
  return { cert: o.cert, key: o.key };
}

async function main(): Promise<void> {
  const config = hostConfigFromEnv(process.env);
  if (!existsSync(path.join(ADDIN_DIR, 'dist', 'functions.js'))) {
    console.log('addin/dist is missing: building the add-in first.');
    await buildAddin({ origin: process.env.ADDIN_ORIGIN, deploymentKey: config.deploymentKey });
  }
  let service: ServiceTarget;
  let stopSandbox: (() => Promise<void>) | undefined;
  if (config.service) {
    service = { ...config.service, label: new URL(config.service.baseUrl).host };
  } else {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    stopSandbox = sandbox.close;
    const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
    service = { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: account.tier, label: 'embedded sandbox', sandbox: true };
    console.log(`No SVC_BASE_URL: using the embedded sandbox at ${sandbox.url}.`);
  }
  const tls = await tlsMaterial(config.tlsCertFile, config.tlsKeyFile);
  const host = await startAddinHost({ service, port: config.port, host: config.host, tls, deploymentKey: config.deploymentKey });
  console.log(`Add-in host on ${host.url} (manifest: ${host.url}/manifest.xml); forwarding the API to ${service.label}.${config.deploymentKey ? ' Deployment key required.' : ''}`);
  const stop = async () => {
    await host.close();
    await stopSandbox?.();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(`addin:serve failed: ${err instanceof HostConfigError || err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
