/// <reference types="office-js" />
import { budgetLines, confirmPercent, confirmQuestion, refreshBudget, type RefreshBudget } from './budget';
import { freezeFormulas, restoreFormulas, type FreezeScope } from './freeze';
import { SOURCES_SHEET } from './freeze-plan';

/** The pane's way of running a button's work (taskpane.ts onClick): the returned sentence is shown. */
export type OnClick = (id: string, work: () => Promise<string>) => void;

const el = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

function showBudget(b: RefreshBudget): void {
  const dl = el('budget-lines');
  dl.replaceChildren(
    ...budgetLines(b).flatMap(([label, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = label;
      const dd = document.createElement('dd');
      dd.textContent = value;
      return [dt, dd];
    }),
  );
  el('budget').hidden = false;
}

/**
 * Refresh values, with its budget first: the pane shows what the refresh will cost and, above
 * the user's threshold, asks before spending it. `refreshAll` is the refresh itself.
 */
export function wireRefreshBudget(onClick: OnClick, refreshAll: () => Promise<string>): void {
  const threshold = el<HTMLInputElement>('confirm-percent');
  threshold.value = String(confirmPercent());
  const confirm = el('budget-confirm');
  onClick('estimate-refresh', async () => {
    const b = await refreshBudget(confirmPercent(threshold));
    showBudget(b);
    confirm.hidden = true;
    return `A refresh would make ${b.estimate.calls.toLocaleString('en-US')} calls.`;
  });
  onClick('refresh-values', async () => {
    const pct = confirmPercent(threshold);
    const b = await refreshBudget(pct);
    showBudget(b);
    if (b.confirm) {
      el('budget-question').textContent = confirmQuestion(b, pct);
      confirm.hidden = false;
      return 'Not refreshed yet: confirm below.';
    }
    confirm.hidden = true;
    return refreshAll();
  });
  onClick('budget-go', async () => {
    confirm.hidden = true;
    return refreshAll();
  });
  onClick('budget-cancel', async () => {
    confirm.hidden = true;
    return 'Refresh cancelled; nothing was spent.';
  });
}

/** Freeze for sharing and Restore formulas. */
export function wireSharing(onClick: OnClick): void {
  onClick('freeze', async () => {
    const scope = el<HTMLSelectElement>('freeze-scope').value === 'selection' ? 'selection' : ('workbook' satisfies FreezeScope);
    const r = await freezeFormulas(scope);
    return `Froze ${r.frozen.toLocaleString('en-US')} SVC formula${r.frozen === 1 ? '' : 's'} to values; "${SOURCES_SHEET}" lists ${r.total.toLocaleString('en-US')} frozen cell${r.total === 1 ? '' : 's'}.`;
  });
  onClick('restore', async () => {
    const r = await restoreFormulas();
    const changed = r.changed.length ? ` ${r.changed.length} cell${r.changed.length === 1 ? ' was' : 's were'} changed since the freeze and left as ${r.changed.length === 1 ? 'it is' : 'they are'} (${r.changed.slice(0, 5).join(', ')}${r.changed.length > 5 ? ', …' : ''}); "${SOURCES_SHEET}" still lists ${r.changed.length === 1 ? 'it' : 'them'}.` : '';
    return `Restored ${r.restored.toLocaleString('en-US')} SVC formula${r.restored === 1 ? '' : 's'}.${changed}`;
  });
}
