/**
 * npm run addin:serve: the add-in host over HTTPS. With no SVC_BASE_URL it starts the embedded
 * sandbox and signs in with its demo enterprise account, so it works on a fresh machine.
 * Builds addin/dist first when it is missing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, DEMO_ACCOUNTS } from '../../src/sandbox';
import { buildAddin } from '../build/build';
import { ADDIN_DIR } from '../paths';
import { hostConfigFromEnv, HostConfigError } from './config';
import { startAddinHost, type ServiceTarget } from './host';
import { tlsMaterial } from './tls-material';

async function main(): Promise<void> {
  const config = hostConfigFromEnv(process.env);
  // First, before building or starting anything: without a certificate there is nothing to serve.
  const tls = await tlsMaterial(config.tlsCertFile, config.tlsKeyFile);
  if (!existsSync(path.join(ADDIN_DIR, 'dist', 'functions.js'))) {
    console.log('addin/dist is missing: building the add-in first.');
    await buildAddin({ origin: config.publicOrigin, deploymentKey: config.deploymentKey });
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
  // Replicas on one account (SVC_REDIS_URL): the rate budget and the answers live in Redis.
  const shared = config.redisUrl ? await (await import('./shared-account')).openSharedAccount(config.redisUrl, service, (line) => console.error(line)) : undefined;
  const host = await startAddinHost({ service, port: config.port, host: config.host, tls, deploymentKey: config.deploymentKey, auth: config.auth, auditLog: config.auditLog, perUserDailyCap: config.perUserDailyCap, officeJs: config.officeJs, publicOrigin: config.publicOrigin, shared });
  console.log(
    `Add-in host on ${host.url} (manifest: ${host.url}/manifest.xml); forwarding the API to ${service.label}; office.js from ${config.officeJs === 'local' ? 'this host (ADDIN_OFFICE_JS=local)' : "Microsoft's CDN"}.${config.deploymentKey ? ' Deployment key required.' : ''} Sign-in: ADDIN_AUTH=${config.auth.mode}${config.auth.mode === 'entra' ? ` (issuer ${config.auth.entra.issuer})` : ''}; audit log ${config.auditLog}.`,
  );
  const stop = async () => {
    await host.close();
    await shared?.close();
    await stopSandbox?.();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  // A setting to correct is exit 2 (usage), anything else 1; never a stack trace.
  console.error(`addin:serve failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = err instanceof HostConfigError ? 2 : 1;
});
