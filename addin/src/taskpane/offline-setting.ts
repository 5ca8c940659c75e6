/// <reference types="office-js" />
import type { AddinRuntime } from '../shared/runtime';
import type { Translator } from '../../../src/i18n';
import { addinTranslator } from '../shared/display-language';

/** The pane's elements this module drives (taskpane.html, section "When offline"). */
export interface OfflineSettingElements {
  toggle: HTMLInputElement;
  count: HTMLElement;
}

/** What the pane says about cells showing last known values. */
export function staleCellsText(count: number, tr: Translator = addinTranslator()): string {
  if (count === 0) return '';
  return tr.t('addin.stale_cells', { count });
}

/**
 * "Use last known values when offline": the checkbox reflects and changes the setting kept on
 * the machine (the runtime reads it when a plain cell's service is unreachable), and the pane
 * says how many cells show stale values, updated as cells settle. Cards show theirs whatever
 * the setting (they say "Stale since" themselves) and are counted too.
 */
export async function startOfflineSetting(runtime: AddinRuntime, elements: OfflineSettingElements): Promise<void> {
  const { toggle, count } = elements;
  const show = (n: number) => {
    count.textContent = staleCellsText(n);
    count.hidden = n === 0;
  };
  show(runtime.staleCells.count);
  runtime.staleCells.subscribe(show);
  toggle.checked = await runtime.useLastKnownWhenOffline();
  toggle.addEventListener('change', () => {
    void runtime.setUseLastKnownWhenOffline(toggle.checked).then(recalculateCells);
  });
}

/**
 * Cells already showing #N/A (or last known values) change only when calculated again: a full
 * calculation re-asks every SVC cell, which clears no cache — valid answers still cost nothing.
 */
async function recalculateCells(): Promise<void> {
  try {
    await Excel.run(async (ctx) => {
      ctx.workbook.application.calculate(Excel.CalculationType.full);
      await ctx.sync();
    });
  } catch {
    // Outside Excel (the pane in a browser) there is nothing to recalculate.
  }
}
