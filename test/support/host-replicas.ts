import { startAddinHost, type AddinHostOptions, type RunningAddinHost } from '../../addin/server/host';
import { openSharedAccount, type SharedAccount } from '../../addin/server/shared-account';
import type { ServiceTarget } from '../../addin/server/service-target';

export interface HostReplicas {
  replicas: { host: RunningAddinHost; shared: SharedAccount }[];
  close(): Promise<void>;
}

/** `n` add-in hosts on one service account sharing one Redis (SVC_REDIS_URL), plain HTTP on 127.0.0.1. */
export async function startHostReplicas(n: number, redisUrl: string, service: ServiceTarget, host: Partial<AddinHostOptions> & { distDir: string }): Promise<HostReplicas> {
  const replicas: HostReplicas['replicas'] = [];
  for (let i = 0; i < n; i++) {
    const shared = await openSharedAccount(redisUrl, service, () => {});
    replicas.push({ host: await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service, shared, ...host }), shared });
  }
  return {
    replicas,
    async close() {
      for (const r of replicas) {
        await r.host.close();
        await r.shared.close();
      }
    },
  };
}
