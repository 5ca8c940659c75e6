import type { Alert, SegmentId } from '../../../src/wire';
import { addinTranslator } from '../shared/display-language';

export const ALERT_HEADERS = ['severity', 'segment', 'title', 'message', 'expires_at'] as const;

/** The alerts table a streaming cell shows: a header row, then one row per active alert (or a row saying there are none). */
export function alertRows(alerts: readonly Alert[], segment?: SegmentId): (string | number)[][] {
  const rows = alerts.filter((a) => segment === undefined || a.segment === segment).map((a) => [a.severity, a.segment, a.title, a.message, a.expires_at]);
  return [[...ALERT_HEADERS], ...(rows.length > 0 ? rows : [['', segment ?? '', addinTranslator().t('addin.dashboard_no_alerts'), '', '']])];
}
