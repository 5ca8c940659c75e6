import type { Keeping, StorageRefusal } from '../shared/safe-storage';
import type { Translator } from '../../../src/i18n';
import { addinTranslator } from '../shared/display-language';

/** Why, in the user's words: the first case is the common one (Excel on the web in a browser that blocks third-party storage). */
function why(refusal: StorageRefusal, tr: Translator): string {
  switch (refusal.kind) {
    case 'blocked':
      return tr.t('addin.storage_blocked');
    case 'absent':
      return tr.t('addin.storage_absent');
    case 'refused':
      return tr.t('addin.storage_refused', { error: refusal.error });
  }
}

/** What the pane says when answers cannot be kept on this machine; nothing when they can. */
export function storageNoticeText(keeping: Keeping, tr: Translator = addinTranslator()): string {
  if (keeping.kept) return '';
  return tr.t('addin.storage_notice', { why: why(keeping.refusal, tr) });
}

/** Shows the sentence in `element` once the machine's store is chosen (safe-storage.ts). */
export async function showStorageNotice(keeping: Promise<Keeping>, element: HTMLElement): Promise<void> {
  const text = storageNoticeText(await keeping);
  element.textContent = text;
  element.hidden = text === '';
}
