import '../shared/custom-functions-global';
import { toExcelError } from '../shared/excel-errors';

/** What a function's work needs from its invocation: a signal that fires when Excel cancels, and whether this is a value preview. */
export interface Call {
  signal: AbortSignal;
  /** Formula value preview: answer from the cache or not at all, never with a call. */
  preview: boolean;
}

/**
 * Last resort against an eternal #BUSY!: nothing a cell waits for takes longer than this.
 * Long enough for a big sheet on a small tier (10,000 distinct assets are 200 calls, over
 * three minutes at 60 a minute), which is waiting the budget allows, not a hang.
 */
export const SETTLE_DEADLINE_MS = 600_000;

/**
 * Runs one invocation's work so that it always settles: with its value, with the Excel
 * error its failure maps to, or with #N/A when the deadline passes. Excel's cancellation
 * aborts the work, which releases the cell's place in the shared queue.
 */
export async function settle<T>(invocation: CustomFunctions.CancelableInvocation | undefined, work: (call: Call) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  if (invocation) invocation.onCanceled = () => controller.abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(Object.assign(new Error(`The valuation service did not answer within ${SETTLE_DEADLINE_MS / 1000} seconds.`), { name: 'TimeoutError' }));
    }, SETTLE_DEADLINE_MS);
  });
  try {
    return await Promise.race([work({ signal: controller.signal, preview: invocation?.isInValuePreview === true }), deadline]);
  } catch (err) {
    throw toExcelError(err);
  } finally {
    clearTimeout(timer);
  }
}
