import type { MachineStorage } from '../dispatcher/machine-storage';

/** Where "Use last known values when offline" is kept on the machine, beside the kept answers. */
const ITEM = 'svc-addin:settings:use-last-known-when-offline';

/** Off unless the user turned it on: a plain number cell otherwise never shows a stale value silently. */
export async function readUseLastKnown(storage: MachineStorage): Promise<boolean> {
  try {
    return (await storage.getItem(ITEM)) === 'on';
  } catch {
    return false;
  }
}

export async function writeUseLastKnown(storage: MachineStorage, on: boolean): Promise<void> {
  if (on) await storage.setItem(ITEM, 'on');
  else await storage.removeItem(ITEM);
}
