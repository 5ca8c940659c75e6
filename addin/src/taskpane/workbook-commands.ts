/// <reference types="office-js" />
import { budgetLines, confirmPercent, confirmQuestion, refreshBudget, type RefreshBudget } from './budget';
import { freezeFormulas, restoreFormulas, type FreezeScope, type RestoreResult } from './freeze';
import { confirmationKey, SOURCES_SHEET, type OtherFormula } from './freeze-plan';
import { addinTranslator } from '../shared/display-language';

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
    return tr().t('addin.refresh_would_make', { calls: b.estimate.calls });
  });
  onClick('refresh-values', async () => {
    const pct = confirmPercent(threshold);
    const b = await refreshBudget(pct);
    showBudget(b);
    if (b.confirm) {
      el('budget-question').textContent = confirmQuestion(b, pct);
      confirm.hidden = false;
      return tr().t('addin.refresh_not_yet');
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
    return tr().t('addin.refresh_cancelled');
  });
}

const tr = () => addinTranslator();

/** What a restore did, in sentences: restored (SVC's, or the ones the user confirmed), changed since the freeze, waiting for the user's word. */
function restoredSentence(r: RestoreResult, confirmed = false): string {
  const t = tr();
  const cells = `${r.changed.slice(0, 5).join(', ')}${r.changed.length > 5 ? ', …' : ''}`;
  return [
    t.t(confirmed ? 'addin.restored_confirmed' : 'addin.restored_svc', { count: r.restored }),
    r.changed.length ? t.t('addin.restore_changed', { count: r.changed.length, cells, sheet: SOURCES_SHEET }) : '',
    r.others.length ? t.t('addin.restore_others', { count: r.others.length }) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The formulas that are not SVC's own, each with what in it is not, as the pane lists them (text only: never markup). */
function showOthers(others: readonly OtherFormula[]): void {
  el('restore-question').textContent = tr().t('addin.restore_question', { count: others.length });
  el('restore-others').replaceChildren(
    ...others.map((o) => {
      const li = document.createElement('li');
      const code = document.createElement('code');
      code.textContent = o.formula.length > 200 ? `${o.formula.slice(0, 200)}…` : o.formula;
      li.append(`${o.address} (${o.outside.join(', ')}): `, code);
      return li;
    }),
  );
  el('restore-confirm').hidden = false;
}

/** Freeze for sharing and Restore formulas (formulas not SVC's own only once the user confirms the ones listed). */
export function wireSharing(onClick: OnClick): void {
  let listed: OtherFormula[] = [];
  const confirmBox = el('restore-confirm');
  onClick('freeze', async () => {
    const scope = el<HTMLSelectElement>('freeze-scope').value === 'selection' ? 'selection' : ('workbook' satisfies FreezeScope);
    const r = await freezeFormulas(scope);
    return tr().t('addin.froze', { frozen: r.frozen, total: r.total, sheet: SOURCES_SHEET });
  });
  onClick('restore', async () => {
    confirmBox.hidden = true;
    const r = await restoreFormulas();
    listed = r.others;
    if (listed.length > 0) showOthers(listed);
    return restoredSentence(r);
  });
  onClick('restore-go', async () => {
    confirmBox.hidden = true;
    // Only what was listed, exactly: a formula changed in the part since is listed again, not restored.
    const r = await restoreFormulas(new Date(), new Set(listed.map(confirmationKey)));
    listed = r.others;
    if (listed.length > 0) showOthers(listed);
    return restoredSentence(r, true);
  });
  onClick('restore-keep', async () => {
    confirmBox.hidden = true;
    const n = listed.length;
    listed = [];
    return tr().t('addin.restore_left', { count: n, sheet: SOURCES_SHEET });
  });
}
