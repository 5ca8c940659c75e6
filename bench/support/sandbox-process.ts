import { spawn } from 'node:child_process';
import { sourceCommand } from '../../fixtures/commands';

export interface SandboxProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * The sandbox in its own process (the svc-sandbox CLI), as the service would be: sharing the
 * benchmark's event loop would make the measured side wait on the service's work.
 */
export async function spawnSandbox(args: string[]): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [...sourceCommand('svc-sandbox'), '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`svc-sandbox exited with ${code}`)));
    child.stdout.on('data', (d: Buffer) => {
      const m = /(http:\/\/\S+\/v1)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
  });
  return {
    url,
    pid: child.pid!,
    close: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
