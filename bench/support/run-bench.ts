import { rmSync } from 'node:fs';

/** Runs a benchmark's main; on failure its work folder is removed, the error printed, exit 1. */
export function runBench(work: string, main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    rmSync(work, { recursive: true, force: true });
    console.error(e);
    process.exit(1);
  });
}
