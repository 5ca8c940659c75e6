import { skipQuoted, svcCalls } from './svc-formulas';
import { addinTranslator } from '../shared/display-language';

/**
 * Which formulas are the add-in's own: what "Restore formulas" puts back without asking. A
 * frozen-formula part comes with the workbook, so whoever sent the file chose its formulas; a
 * formula that calls anything besides SVC's functions (=WEBSERVICE(…), =HYPERLINK(…), INDIRECT)
 * or links outside the workbook (another workbook, DDE) could send the sheet's data away or run
 * something, so the pane lists it and restores it only when the user says so (docs/decisions.md).
 */

/** An SVC function as formula text shows it (Office.js, or a file saved without the add-in). */
const SVC_FUNCTION = /^(?:SVC\.|_xldudf_SVC_)[A-Za-z][A-Za-z0-9]*$/i;
/** A name followed by "(": a function call. */
const CALLED_NAME = /[A-Za-z_\\][A-Za-z0-9_.\\]*(?=\s*\()/y;

/** What in `formula` is not SVC's (function names, links out), in order, in Excel's display language (the pane lists it); empty when it is the add-in's own. */
export function notTheAddins(formula: string): string[] {
  const tr = addinTranslator();
  if (!formula.startsWith('=')) return [tr.t('addin.outside_no_formula')];
  const found: string[] = [];
  const note = (what: string) => {
    if (!found.includes(what)) found.push(what);
  };
  for (let i = 1; i < formula.length; i++) {
    const ch = formula[i]!;
    if (ch === '"') {
      i = skipQuoted(formula, i);
      continue;
    }
    if (ch === "'") {
      // A quoted sheet name: a sheet's own name cannot hold brackets, a link to another workbook's does.
      const end = skipQuoted(formula, i);
      if (/[[\]]/.test(formula.slice(i, end))) note(tr.t('addin.outside_workbook_link'));
      i = end;
      continue;
    }
    if (ch === '[') note(tr.t('addin.outside_workbook_or_table'));
    if (ch === '|') note(tr.t('addin.outside_dde'));
    if (/[A-Za-z_\\]/.test(ch) && !/[A-Za-z0-9_.\\]/.test(formula[i - 1]!)) {
      CALLED_NAME.lastIndex = i;
      const m = CALLED_NAME.exec(formula);
      if (m && !SVC_FUNCTION.test(m[0])) note(m[0].toUpperCase());
      if (m) i += m[0].length - 1;
    }
  }
  if (svcCalls(formula).length === 0) note(tr.t('addin.outside_no_svc'));
  return found;
}

