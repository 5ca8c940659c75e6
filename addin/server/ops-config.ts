import { LogConfigError, resolveLogFormat, resolveLogLevel, type LogFormat, type LogLevel } from '../../src/ops';
import { HostConfigError } from './config';
import { DEFAULT_SHUTDOWN_MS } from './drain';

/** How the host is run and watched (docs/operations.md): logs, the metrics listener, the stop bound. */
export interface HostOpsConfig {
  /** ADDIN_LOG_FORMAT: json by default when stdout (where the host logs) is not a terminal. */
  logFormat: LogFormat;
  /** ADDIN_LOG_LEVEL (default info). */
  logLevel: LogLevel;
  /** ADDIN_METRICS_PORT and ADDIN_METRICS_HOST (default 127.0.0.1): Prometheus's /metrics on a listener of its own; none when the port is unset. */
  metrics?: { port: number; host: string };
  /** ADDIN_SHUTDOWN_SECONDS: how long requests in flight may finish after SIGTERM (default 10). */
  shutdownMs: number;
}

export function hostOpsFromEnv(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean }): HostOpsConfig {
  let logFormat: LogFormat;
  let logLevel: LogLevel;
  try {
    logFormat = resolveLogFormat(env.ADDIN_LOG_FORMAT, 'ADDIN_LOG_FORMAT', stdout);
    logLevel = resolveLogLevel(env.ADDIN_LOG_LEVEL, 'ADDIN_LOG_LEVEL');
  } catch (err) {
    if (err instanceof LogConfigError) throw new HostConfigError(err.message);
    throw err;
  }
  const config: HostOpsConfig = { logFormat, logLevel, shutdownMs: DEFAULT_SHUTDOWN_MS };
  if (env.ADDIN_METRICS_PORT?.trim()) {
    const port = Number(env.ADDIN_METRICS_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new HostConfigError(`ADDIN_METRICS_PORT must be a port number (got "${env.ADDIN_METRICS_PORT}").`);
    config.metrics = { port, host: env.ADDIN_METRICS_HOST?.trim() || '127.0.0.1' };
  } else if (env.ADDIN_METRICS_HOST?.trim()) {
    throw new HostConfigError('ADDIN_METRICS_HOST needs ADDIN_METRICS_PORT: the metrics listener is off unless a port is given.');
  }
  if (env.ADDIN_SHUTDOWN_SECONDS?.trim()) {
    const seconds = Number(env.ADDIN_SHUTDOWN_SECONDS);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) throw new HostConfigError(`ADDIN_SHUTDOWN_SECONDS must be a number of seconds from 0 to 3600 (got "${env.ADDIN_SHUTDOWN_SECONDS}").`);
    config.shutdownMs = Math.round(seconds * 1000);
  }
  return config;
}
