import type { OperationName } from '../wire';

/**
 * One exchange with the service as the transport saw it, for metrics and logs (src/ops): the
 * operation, how it ended and how long it took; never a body, a header or a token.
 */
export interface CallEvent {
  operation: OperationName;
  /** The HTTP status, or 0 when no answer came. */
  status: number;
  /** Why no answer came (status 0). */
  failure?: 'timeout' | 'network' | 'aborted';
  /** From the request leaving to its body in hand (the wait in the rate gate excluded). */
  durationMs: number;
  /** The service's x-request-id for this exchange, when it sent one. */
  requestId: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
}

/** Called once per exchange, token calls included; it must not throw (a throw is ignored). */
export type CallObserver = (event: CallEvent) => void;

export function notify(observer: CallObserver | undefined, event: CallEvent): void {
  if (!observer) return;
  try {
    observer(event);
  } catch {
    // Metrics and logs never fail a call.
  }
}
