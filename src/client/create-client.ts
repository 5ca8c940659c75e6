import { ServiceClient } from './client';
import type { ClientOptions } from './options';

/** The client for one account of the service: `createClient({ baseUrl, clientId, clientSecret, tier })`. */
export function createClient(options: ClientOptions): ServiceClient {
  return new ServiceClient(options);
}
