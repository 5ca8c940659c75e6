/**
 * The signing key's password: SVC_SIGN_PASSWORD, or typed at a prompt (not echoed) when stdin is
 * a terminal. Never a command-line flag (it would sit in the shell's history and the process
 * list), and never written anywhere: it goes to the PKCS#12 reader only.
 */
import { UsageError } from '../run/exit-codes';

export const PASSWORD_ENV = 'SVC_SIGN_PASSWORD';

export async function signingPassword(file: string, env: NodeJS.ProcessEnv = process.env, stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const fromEnv = env[PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!stdin.isTTY) throw new UsageError(`--sign ${file}: set ${PASSWORD_ENV} to its password (or run on a terminal to be asked)`);
  return prompt(`Password for ${file}: `, stdin);
}

/** Reads a line from the terminal without echoing it; Ctrl-C aborts. */
function prompt(question: string, stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('signing cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    // Echo off before the question shows: a password typed (or pasted) the moment it appears
    // must never be echoed by the terminal.
    stdin.setRawMode(true);
    process.stderr.write(question);
    stdin.resume();
    stdin.on('data', onData);
  });
}
