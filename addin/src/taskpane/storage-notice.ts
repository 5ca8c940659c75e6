import type { Keeping, StorageRefusal } from '../shared/safe-storage';

/** Why, in the user's words: the first case is the common one (Excel on the web in a browser that blocks third-party storage). */
function why(refusal: StorageRefusal): string {
  switch (refusal.kind) {
    case 'blocked':
      return 'the browser blocks storage for add-ins (third-party storage)';
    case 'absent':
      return 'this browser gives add-ins no storage';
    case 'refused':
      return `the browser refused to store them (${refusal.error})`;
  }
}

/** What the pane says when answers cannot be kept on this machine; nothing when they can. */
export function storageNoticeText(keeping: Keeping): string {
  if (keeping.kept) return '';
  return `Answers cannot be kept on this computer: ${why(keeping.refusal)}. Values are fetched afresh each time; last known values are not available offline.`;
}

/** Shows the sentence in `element` once the machine's store is chosen (safe-storage.ts). */
export async function showStorageNotice(keeping: Promise<Keeping>, element: HTMLElement): Promise<void> {
  const text = storageNoticeText(await keeping);
  element.textContent = text;
  element.hidden = text === '';
}
