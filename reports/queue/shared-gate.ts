import { openSharedGate, type SharedGate } from '../../src/scale-out';
import { UsageError } from '../run/exit-codes';

/** The report job's share of the account through Redis; Redis not reachable at the start is a setting to correct (exit 2). */
export async function openReportGate(baseUrl: string, clientId: string | undefined, redisUrl: string, minuteMs: number | undefined, log: (line: string) => void): Promise<SharedGate> {
  try {
    return await openSharedGate({ redisUrl, baseUrl, clientId, limits: { minuteMs: minuteMs ?? 60_000, dayMs: 86_400_000 }, log, processName: 'svc-report' });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
