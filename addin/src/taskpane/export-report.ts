/// <reference types="office-js" />
import type { ReportFormat } from '../../contract/host-pane';
import type { Currency } from '../../../src/wire';
import { exportReport, type ExportedFile } from './host-api';
import { readSelection } from './value-selection';
import { addinTranslator } from '../shared/display-language';

/**
 * "Export report": posts the selected holdings table to the host, which builds the report
 * with the report job's code (reports/) and answers with the file.
 */
export async function exportSelection(format: ReportFormat, currency: Currency): Promise<ExportedFile> {
  const selection = await readSelection();
  return exportReport({ format, grid: selection.values, sheet: selection.sheet, first_row: selection.rowIndex + 1, currency, portfolio_name: selection.sheet });
}

/** Offers the file to the user: a download link, which also works where Office blocks automatic downloads. */
export function offerDownload(file: ExportedFile, link: HTMLAnchorElement): void {
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  // Saved, never shown: a blob: URL has the pane's origin, so the web page (issue 38) opened from it would run as the pane.
  link.href = URL.createObjectURL(new Blob([file.bytes], { type: 'application/octet-stream' }));
  link.download = file.name;
  link.textContent = addinTranslator().t('addin.download', { file: file.name });
  link.hidden = false;
  link.click();
}
