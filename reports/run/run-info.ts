import { basename } from 'node:path';
import type { RunInfo } from '../../src/db';
import type { JobSettings } from '../config';
import { toolVersion } from '../run-manifest';

/**
 * The run as the history database records it: tool version, service, sandbox or not, and the
 * command in brief (`svc-report run a.csv ledger.xlsx --as-of 2026-03-31`: the input files'
 * names, never an address or a secret).
 */
export function runInfo(settings: JobSettings, files?: readonly string[]): RunInfo {
  return {
    toolVersion: toolVersion(),
    serviceUrl: settings.service.baseUrl ?? 'embedded-sandbox',
    sandbox: settings.service.sandbox,
    command: files ? `svc-report run ${files.map((f) => basename(f)).join(' ')} --as-of ${settings.asOf}` : 'svc-report worker',
  };
}
