import { Command, InvalidArgumentError } from 'commander';
import { OPENAPI_PATH } from '../wire/openapi';
import { DEMO_ACCOUNTS, loadAccountsFile, parseFaults, startSandbox, type AccountConfig } from './index';

/** `svc-sandbox` / `npm run sandbox`: the local service over HTTP. */
function int(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}.`);
    return n;
  };
}

const program = new Command()
  .name('svc-sandbox')
  .description('Local sandbox of the luxury-asset valuation service: the 20 operations plus POST /scores/batch under /v1, with auth, rate limits and optional faults.')
  .option('--port <n>', 'port to listen on (0 picks a free one)', int('--port', 0), 8787)
  .option('--host <host>', 'interface to bind', '127.0.0.1')
  .option('--accounts <file>', 'JSON array of {client_id, client_secret, tier, scope?, per_minute?, per_day?} (default: the three demo accounts)')
  .option('--token-ttl <seconds>', 'access token lifetime in seconds', int('--token-ttl', 1), 3600)
  .option('--minute-ms <n>', 'length of the per-minute rate window in ms', int('--minute-ms', 1), 60_000)
  .option('--day-ms <n>', 'length of the per-day rate window in ms', int('--day-ms', 1), 86_400_000)
  .option('--faults <spec>', 'inject faults: error=SHARE (500s), drop=SHARE (connection dropped), latency=MIN-MAX (ms added), r429=SHARE (spurious 429s), e.g. error=0.1,drop=0.05,latency=5-50,r429=0.02')
  .option('--seed <n>', 'seed making the fault sequence repeatable', int('--seed', 0), 1)
  .option('--market-seed <n>', "seed of the market model (default: the model's own, the same market everywhere)", int('--market-seed', 0))
  .option('--log <file>', 'append one JSON line per request: {t, client_id, method, path, status, items}')
  .option('--quiet', 'print only the URL line on start')
  .addHelpText(
    'after',
    `
Examples:
  npx svc-sandbox
  npx svc-sandbox --port 0 --faults error=0.1,latency=5-50 --seed 7 --log requests.jsonl
  npm run sandbox -- --accounts accounts.json --minute-ms 1000

Base path /v1; the OpenAPI document is at /v1/openapi.json. Every answer carries x-sandbox: true. Wrong client secrets are slowed per client id (five free, then 1 s doubling to 60 s). Without --accounts the demo accounts are: ${DEMO_ACCOUNTS.map((a) => `${a.client_id} (${a.tier})`).join(', ')}.`,
  );

program.parse();
const opts = program.opts<{
  port: number;
  host: string;
  accounts?: string;
  tokenTtl: number;
  minuteMs: number;
  dayMs: number;
  faults?: string;
  seed: number;
  marketSeed?: number;
  log?: string;
  quiet?: boolean;
}>();

let accounts: AccountConfig[] | undefined;
try {
  accounts = opts.accounts ? loadAccountsFile(opts.accounts) : undefined;
  if (opts.faults) parseFaults(opts.faults);
} catch (e) {
  program.error(`svc-sandbox: ${(e as Error).message}`);
}

const sandbox = await startSandbox({
  port: opts.port,
  host: opts.host,
  accounts,
  tokenTtlSeconds: opts.tokenTtl,
  minuteMs: opts.minuteMs,
  dayMs: opts.dayMs,
  faults: opts.faults,
  seed: opts.seed,
  marketSeed: opts.marketSeed,
  logFile: opts.log,
}).catch((e: Error) => program.error(`svc-sandbox: cannot start: ${e.message}`));

// Listening for the signals before saying so: a script may stop it the moment it reads the line.
const stop = () => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

// The URL line goes to stdout so scripts (and bench/sandbox.ts) can read it.
console.log(`svc-sandbox listening on ${sandbox.url}`);
if (!opts.quiet) {
  if (accounts) {
    // Secrets of an accounts file are never printed.
    console.error(`accounts from ${opts.accounts}: ${accounts.map((a) => `${a.client_id} (${a.tier})`).join(', ')}`);
  } else {
    console.error('demo accounts (public demo credentials):');
    for (const a of DEMO_ACCOUNTS) console.error(`  ${a.tier.padEnd(10)} client_id=${a.client_id}  client_secret=${a.client_secret}`);
  }
  if (opts.faults) console.error(`faults: ${opts.faults} (seed ${opts.seed})`);
  console.error(`OpenAPI document (no token needed): ${sandbox.url}${OPENAPI_PATH}`);
  console.error(`get a token: curl -s -X POST ${sandbox.url}/auth/token -H 'content-type: application/json' -d '{"client_id":"…","client_secret":"…","grant_type":"client_credentials"}'`);
}

