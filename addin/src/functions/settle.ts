import '../shared/custom-functions-global';
import { toExcelError } from '../shared/excel-errors';
import { getRuntimeIfReady } from '../shared/runtime';
import { addinTranslator } from '../shared/display-language';

/** What a function's work needs from its invocation: a signal that fires when Excel cancels, and whether this is a value preview. */
export interface Call {
  signal: AbortSignal;
  /** Formula value preview: answer from the cache or not at all, never with a call. */
  preview: boolean;
  /** Says the cell shows a last known answer, stale since that time (epoch ms): the pane counts such cells. */
  servedStale: (staleSince: number) => void;
}

let unaddressed = 0;

/** The cell, for the pane's count of stale cells: its address (the functions ask Excel for it), else one of its own. */
function cellOf(invocation: CustomFunctions.Invocation | undefined): string {
  return invocation?.address ?? `invocation ${++unaddressed}`;
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
      reject(Object.assign(new Error(addinTranslator().t('addin.cell_settle_timeout', { seconds: String(SETTLE_DEADLINE_MS / 1000) })), { name: 'TimeoutError' }));
    }, SETTLE_DEADLINE_MS);
  });
  let stale = false;
  const call: Call = { signal: controller.signal, preview: invocation?.isInValuePreview === true, servedStale: () => (stale = true) };
  const cell = cellOf(invocation);
  try {
    const value = await Promise.race([work(call), deadline]);
    getRuntimeIfReady()?.staleCells.note(cell, stale);
    return value;
  } catch (err) {
    getRuntimeIfReady()?.staleCells.note(cell, false);
    throw toExcelError(err);
  } finally {
    clearTimeout(timer);
  }
}
