/**
 * One process of an account shared through Redis: values `count` watches (references
 * prefixed with `prefix`) through ServiceClient.valueAll with the Redis gate, prints one JSON
 * line { valued, failed, errors } on stdout; the gate's messages go to stderr.
 *
 *   node --import tsx gate-client.ts '{"baseUrl":…,"clientId":…,"redisUrl":…,"count":…,"prefix":…,"minuteMs":…}'
 * The secret comes in SVC_CLIENT_SECRET. Without redisUrl the process keeps its own gate (the
 * behaviour before issue 14, used to show the test can fail).
 */
import { ServiceClient, type AccountGate } from '../../../src/client';
import { openSharedGate } from '../../../src/scale-out';

const args = JSON.parse(process.argv[2]!) as { baseUrl: string; clientId: string; redisUrl?: string; count: number; prefix: string; minuteMs: number; marginMs?: number; perMinute: number; perDay: number };
const limits = { perMinute: args.perMinute, perDay: args.perDay, minuteMs: args.minuteMs, ...(args.marginMs === undefined ? {} : { marginMs: args.marginMs }) };
const shared = args.redisUrl
  ? await openSharedGate({ redisUrl: args.redisUrl, baseUrl: args.baseUrl, clientId: args.clientId, limits: { ...limits, dayMs: 86_400_000 }, log: (l) => process.stderr.write(l + '\n'), processName: 'gate-client' })
  : undefined;
const rateGate: AccountGate | undefined = shared?.gate;
const client = new ServiceClient({ baseUrl: args.baseUrl, clientId: args.clientId, clientSecret: process.env.SVC_CLIENT_SECRET!, limits, rateGate, concurrency: 4, maxRateLimitRetries: 50 });
const items = Array.from({ length: args.count }, (_, i) => ({ segment: 'watches' as const, brand: 'Rolex', model: 'Submariner', reference: `${args.prefix}${i}` }));
const outcomes = await client.valueAll(items, { onProgress: (p) => process.stdout.write(JSON.stringify({ progress: p.done }) + '\n') });
const failed = outcomes.filter((o) => !o.ok);
process.stdout.write(JSON.stringify({ valued: outcomes.length - failed.length, failed: failed.length, errors: [...new Set(failed.map((o) => (o.ok ? '' : o.error.message)))].slice(0, 3) }) + '\n');
await shared?.close();
