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
import { createLog, databaseCheck, startOpsServer, type Log } from '../../src/ops';
import { hostOpsFromEnv } from './ops-config';

/** How long a history request waits for another process holding an embedded database (a month-end recording). */
const HOST_DB_WAIT_MS = 30_000;

/** Set once the log's settings are read: failures before that go to stderr as plain text. */
let log: Log | undefined;

async function main(): Promise<void> {
  // The log first: every later line, failures included, goes through it (JSON lines on stdout unless a terminal).
  const ops = hostOpsFromEnv(process.env, process.stdout);
  log = createLog({ format: ops.logFormat, level: ops.logLevel, component: 'addin-host', stream: 'stdout', secrets: [process.env.SVC_CLIENT_SECRET, process.env.ADDIN_DEPLOYMENT_KEY] });
  const config = hostConfigFromEnv(process.env);
  // Opened per request (an embedded folder is held only while a request reads it: issue 34), and
  // once now, so a database that cannot be opened stops the host at start (exit 2, named without a password), before anything is built or served.
  const dbModule = config.dbUrl ? await import('../../src/db') : undefined;
  const db = dbModule && config.dbUrl ? new dbModule.HistoryDatabase(config.dbUrl, { waitMs: HOST_DB_WAIT_MS, onWait: (line) => log?.info(line), command: 'addin host' }) : undefined;
  if (dbModule && db) {
    await db.use(async () => {}).catch((e: unknown) => {
      throw e instanceof dbModule.DatabaseError ? new HostConfigError(`SVC_DB_URL: ${e.message}`) : e;
    });
    log.info(`History database: ${db.where}.`);
  }
  // First, before building or starting anything: without a certificate there is nothing to serve.
  const tls = await tlsMaterial(config.tlsCertFile, config.tlsKeyFile);
  if (!existsSync(path.join(ADDIN_DIR, 'dist', 'functions.js'))) {
    log.info('addin/dist is missing: building the add-in first.');
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
    log.info(`No SVC_BASE_URL: using the embedded sandbox at ${sandbox.url}.`);
  }
  // Replicas on one account (SVC_REDIS_URL): the rate budget and the answers live in Redis.
  const shared = config.redisUrl ? await (await import('./shared-account')).openSharedAccount(config.redisUrl, service, (line) => log?.warn(line)) : undefined;
  // The firm's history database (SVC_DB_URL): readiness checks it answers.
  // Loaded only when configured (PGlite and pg are large), once.
  // Reads are granted by ADDIN_PORTFOLIO_ACCESS alone: without it a signed-in or key host serves no portfolio's history.
  if (db && config.auth.mode !== 'none' && !config.portfolioAccess) log.warn('No ADDIN_PORTFOLIO_ACCESS: nobody may read a portfolio\'s history (SVC.HISTORY, SVC.PERFORMANCE answer "not allowed").');
  const readinessChecks = db ? [databaseCheck(() => db.ping(), db.where)] : [];
  // SVC.HISTORY reads the same database (GET /addin/history).
  const history = db ? (await import('./history-source')).databaseHistory(db) : undefined;
  const host = await startAddinHost({ service, port: config.port, host: config.host, tls, deploymentKey: config.deploymentKey, auth: config.auth, auditLog: config.auditLog, perUserDailyCap: config.perUserDailyCap, userDailySharePercent: config.userDailySharePercent, brand: config.brand, officeJs: config.officeJs, publicOrigin: config.publicOrigin, shared, log, readinessChecks, history, portfolioAccess: config.portfolioAccess });
  // Prometheus's listener: apart from the add-in's port, on 127.0.0.1 unless ADDIN_METRICS_HOST says otherwise.
  const metrics = ops.metrics ? await startOpsServer({ metrics: host.metrics, readiness: host.readiness }, ops.metrics) : undefined;
  // Listening for the signals before announcing the host: a supervisor may stop it the moment it reads the line.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log?.warn(`${signal} again: quitting at once.`);
      process.exit(1);
    }
    stopping = true;
    // Not ready from now on; no new connection; requests in flight finish within the bound, the rest get a 503.
    log?.info(`${signal}: stopping; requests in flight have ${ops.shutdownMs / 1000} s to finish.`);
    const outcome = await host.stop(ops.shutdownMs);
    log?.info(`Stopped: ${outcome.finished} request${outcome.finished === 1 ? '' : 's'} finished after the signal, ${outcome.cutShort} answered 503 at the bound.`, { finished: outcome.finished, cut_short: outcome.cutShort });
    await metrics?.close();
    await shared?.close();
    await db?.close();
    await stopSandbox?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  log.info(
    `Add-in host on ${host.url} (manifest: ${host.url}/manifest.xml); forwarding the API to ${service.label}; office.js from ${config.officeJs === 'local' ? 'this host (ADDIN_OFFICE_JS=local)' : "Microsoft's CDN"}.${config.deploymentKey ? ' Deployment key required.' : ''} Sign-in: ADDIN_AUTH=${config.auth.mode}${config.auth.mode === 'entra' ? ` (issuer ${config.auth.entra.issuer})` : ''}; audit log ${config.auditLog}.`,
  );
  if (config.brand) {
    log.info(`Reports exported in the brand of ${config.brand.firmName} (ADDIN_BRAND_FILE ${config.brand.file}).`);
    for (const line of config.brand.adjustments) log.info(line);
  }
  if (metrics) log.info(`Metrics for Prometheus on ${metrics.url}/metrics; health on ${host.url}/healthz and ${host.url}/readyz (each dependency's state on ${metrics.url}/readyz).`);
}

main().catch((err: unknown) => {
  // A setting to correct is exit 2 (usage), anything else 1; never a stack trace.
  const message = `addin:serve failed: ${err instanceof Error ? err.message : String(err)}`;
  if (log) log.error(message);
  else console.error(message);
  process.exitCode = err instanceof HostConfigError ? 2 : 1;
});
