import type { TierName } from '../../src/wire';

export interface ServiceTarget {
  /** The one service the host forwards to, including /v1. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  tier?: TierName;
  /** Shown in the task pane's status. */
  label?: string;
  sandbox?: boolean;
  /** Short rate windows for tests. */
  limits?: { minuteMs?: number; dayMs?: number };
}
