/// <reference types="office-js" />
import type { AccountBudget } from '../../contract/refresh-budget';
import { DEFAULT_CONFIRM_PERCENT, estimateRefresh, needsConfirmation, planRefresh, type RefreshEstimate, type RefreshPlan } from './budget-plan';
import { fetchBudget } from './host-api';
import { browserStorage } from '../shared/page-storage';
import { addinTranslator } from '../shared/display-language';
import { intlLocale, type Translator } from '../../../src/i18n';
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

/** Figures by the pane's language (Intl through the translator: "1,250" in English, "1.250" in German). */
const n = (tr: Translator, v: number) => tr.number(v, 0);

export function formatDuration(seconds: number, tr: Translator = addinTranslator()): string {
  if (seconds < 1) return tr.t('addin.duration_under_second');
  if (seconds < 90) return tr.t('addin.duration_seconds', { seconds: Math.round(seconds) });
  const minutes = Math.floor(seconds / 60);
  return tr.t('addin.duration_minutes', { minutes, seconds: Math.round(seconds - minutes * 60) });
}

/** A share of today's budget as the language writes a percentage: "1.4%" in English, "1,4 %" in German; "<0.1%" for a sliver. */
export function formatShare(share: number | null, tr: Translator = addinTranslator()): string {
  if (share === null) return tr.t('addin.unknown');
  if (!Number.isFinite(share)) return tr.t('addin.share_nothing_left');
  const pct = share * 100;
  const digits = pct < 10 ? 1 : 0;
  const percent = (fraction: number) => new Intl.NumberFormat(intlLocale(tr.lang), { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
  return pct < 0.1 && pct > 0 ? tr.t('addin.share_below', { share: percent(0.001) }) : percent(Number(pct.toFixed(digits)) / 100);
}

/** The lines the pane shows: label and value. */
export function budgetLines(b: RefreshBudget, tr: Translator = addinTranslator()): [string, string][] {
  const { plan, account, estimate } = b;
  const valuations = Object.values(plan.valuations).reduce((a, x) => a + (x ?? 0), 0);
  const minute = account.minute_ms === 60_000;
  const lines: [string, string][] = [
    [tr.t('addin.budget_cells'), n(tr, plan.cells)],
    [tr.t('addin.budget_distinct'), n(tr, plan.distinct)],
    [tr.t('addin.budget_batch'), tr.t('addin.budget_batch_value', { calls: plan.batchCalls, valuations, size: account.batch_size })],
    [tr.t('addin.budget_other'), n(tr, plan.singleCalls)],
    [
      tr.t('addin.budget_time'),
      estimate.seconds === null
        ? tr.t('addin.budget_time_unknown')
        : tr.t('addin.budget_time_value', {
            duration: formatDuration(estimate.seconds, tr),
            tier: account.tier,
            perMinute: account.per_minute === null ? '?' : n(tr, account.per_minute),
            minute: minute ? 'yes' : 'no',
            seconds: account.minute_ms / 1000,
          }),
    ],
    [tr.t('addin.budget_today'), estimate.dayRemaining === null ? tr.t('addin.unknown') : tr.t('addin.budget_today_value', { share: formatShare(estimate.dayShare, tr), left: estimate.dayRemaining })],
  ];
  if (plan.unreadable > 0) lines.push([tr.t('addin.budget_not_read'), tr.t('addin.budget_not_read_value', { count: plan.unreadable })]);
  return lines;
}

/** The question asked above the threshold. */
export function confirmQuestion(b: RefreshBudget, thresholdPercent: number): string {
  const tr = addinTranslator();
  if (b.estimate.exceedsDay) return tr.t('addin.confirm_exceeds_day', { calls: b.estimate.calls, left: b.estimate.dayRemaining ?? 0 });
  return tr.t('addin.confirm_above_threshold', { share: formatShare(b.estimate.dayShare, tr), threshold: thresholdPercent });
}
