/**
 * Running in production (Node only, never in the browser bundle): JSON-line logs, Prometheus
 * metrics, health and readiness. See docs/operations.md.
 */
export { createLog, resolveLogFormat, resolveLogLevel, LogConfigError, LOG_FORMATS, LOG_LEVELS, REDACTED, type Log, type LogFields, type LogFormat, type LogLevel, type LogOptions } from './log';
export { ServiceMetrics, logCall, type BudgetSource } from './service-metrics';
export { Readiness, serviceCheck, redisCheck, databaseCheck, SERVICE_CHECK_MS, type ReadinessCheck, type ReadinessReport, type CheckResult } from './readiness';
export { startOpsServer, handleOpsRoute, type OpsServer, type OpsRoutes } from './ops-server';
export { Tally } from './tally';
