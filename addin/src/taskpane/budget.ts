/// <reference types="office-js" />
import type { AccountBudget } from '../../contract/refresh-budget';
import { DEFAULT_CONFIRM_PERCENT, estimateRefresh, needsConfirmation, planRefresh, type RefreshEstimate, type RefreshPlan } from './budget-plan';
import { fetchBudget } from './host-api';
import { browserStorage } from '../shared/page-storage';
import { addinTranslator } from '../shared/display-language';
import { readWorkbook } from './workbook-reader';

/**
 * The pane's "budget before refresh": reads the workbook's formulas, asks the host for the
 * account's pace and today's budget, and says what a refresh will cost; above the threshold
 * the pane asks before refreshing.
 */

export interface RefreshBudget {
  plan: RefreshPlan;
  account: AccountBudget;
  estimate: RefreshEstimate;
  confirm: boolean;
}

const THRESHOLD_KEY = 'svc-refresh-confirm-percent';

/** The user's threshold (percent of today's remaining budget), kept in the page's storage; 10 by default. */
export function confirmPercent(input?: HTMLInputElement): number {
  const fromInput = input ? Number(input.value) : NaN;
  if (Number.isFinite(fromInput) && fromInput >= 0) {
    // Where the browser refuses storage the threshold holds for this session only.
    browserStorage().page('localStorage').setItem(THRESHOLD_KEY, String(fromInput));
    return fromInput;
  }
  const kept = browserStorage().page('localStorage').getItem(THRESHOLD_KEY);
  const n = Number(kept);
  return kept !== null && Number.isFinite(n) && n >= 0 ? n : DEFAULT_CONFIRM_PERCENT;
}

export async function refreshBudget(thresholdPercent: number): Promise<RefreshBudget> {
  const sheets = await Excel.run(async (ctx) => readWorkbook(ctx, false));
  const [plan, account] = [planRefresh(sheets), await fetchBudget()];
  const estimate = estimateRefresh(plan, account);
  return { plan, account, estimate, confirm: needsConfirmation(estimate, thresholdPercent) };
}

const n = (v: number) => v.toLocaleString('en-US');

export function formatDuration(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `about ${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

export function formatShare(share: number | null): string {
  if (share === null) return 'unknown';
  if (!Number.isFinite(share)) return 'nothing is left today';
  const pct = share * 100;
  return `${pct < 0.1 && pct > 0 ? '<0.1' : pct.toFixed(pct < 10 ? 1 : 0)}%`;
}

/** The lines the pane shows: label and value. */
export function budgetLines(b: RefreshBudget): [string, string][] {
  const { plan, account, estimate } = b;
  const valuations = Object.values(plan.valuations).reduce((a, x) => a + (x ?? 0), 0);
  const lines: [string, string][] = [
    ['SVC cells', n(plan.cells)],
    ['Distinct requests', n(plan.distinct)],
    ['Batch calls', `${n(plan.batchCalls)} (${n(valuations)} valuations, ${account.batch_size} a call)`],
    ['Other calls', n(plan.singleCalls)],
    ['Time', estimate.seconds === null ? 'unknown (the tier is not known yet)' : `${formatDuration(estimate.seconds)} at ${account.tier === 'unknown' ? 'the account' : account.tier}'s pace (${account.per_minute === null ? '?' : n(account.per_minute)} calls per ${account.minute_ms === 60_000 ? 'minute' : `${n(account.minute_ms / 1000)} s`})`],
    ['Today\u2019s budget', estimate.dayRemaining === null ? 'unknown' : `${formatShare(estimate.dayShare)} of the ${n(estimate.dayRemaining)} calls left today`],
  ];
  if (plan.unreadable > 0) lines.push(['Not read', `${n(plan.unreadable)} call${plan.unreadable === 1 ? '' : 's'} with computed arguments, counted as one request each`]);
  return lines;
}

/** The question asked above the threshold. */
export function confirmQuestion(b: RefreshBudget, thresholdPercent: number): string {
  const tr = addinTranslator();
  if (b.estimate.exceedsDay) return tr.t('addin.confirm_exceeds_day', { calls: b.estimate.calls, left: b.estimate.dayRemaining ?? 0 });
  return tr.t('addin.confirm_above_threshold', { share: formatShare(b.estimate.dayShare), threshold: thresholdPercent });
}
