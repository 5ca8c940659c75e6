import type { ServiceClient } from '../../../src/client';
import type { RuntimeBackend } from './backend';
import { noHostReads, type HostReads } from './host-history';

/** The add-in's backend over the one shared API client (its rate limiter, retries and per-item batch isolation); history from the add-in host. */
export function clientBackend(client: ServiceClient, host: HostReads = noHostReads): RuntimeBackend {
  return {
    valueBatch: (items, currency, signal) => client.valueAll(items, { signal, currency }),
    valuate: (request, currency, signal) => client.valuations.create({ ...request, currency }, { signal }),
    breakdown: async (assetId, signal) => (await client.scores.breakdown({ asset_id: assetId }, { signal })).breakdown,
    projection: async (request, signal) => (await client.projections.create(request, { signal })).projection,
    segmentSignals: (segment, signal) => client.signals.segment(segment, { signal }),
    segmentDetail: async (segment, signal) => (await client.segments.get(segment, { signal })).segment,
    exit: async (request, signal) => (await client.exit.analyse(request, { signal })).exit_strategy,
    alerts: async (signal) => (await client.signals.alerts({ signal })).alerts,
    history: host.history,
    performance: host.performance,
  };
}
