import { UsageError } from '../run/exit-codes';

/** The environment variable every process of the firm's queue is given (docs/scale-out.md). */
export const QUEUE_SECRET_ENV = 'SVC_QUEUE_SECRET';

/** Shorter than this is a password, not a key: refused. */
const MIN_SECRET_CHARS = 16;

/**
 * The queue secret for `run --queue` and `worker`: required, never echoed (the message names the
 * variable and what is wrong with it, never its value).
 */
export function queueSecret(env: NodeJS.ProcessEnv, command: string): string {
  const secret = env[QUEUE_SECRET_ENV];
  if (secret === undefined || secret === '') {
    throw new UsageError(`${command} needs ${QUEUE_SECRET_ENV}: the secret every process of the firm's queue shares, to sign and check its jobs and journal entries (at least ${MIN_SECRET_CHARS} characters; see docs/scale-out.md)`);
  }
  if (secret.length < MIN_SECRET_CHARS) throw new UsageError(`${QUEUE_SECRET_ENV} is shorter than ${MIN_SECRET_CHARS} characters: give the firm's queue secret (see docs/scale-out.md)`);
  return secret;
}
