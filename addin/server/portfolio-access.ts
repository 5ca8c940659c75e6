import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { AuthMode } from './auth/settings';
import type { RequestUser } from './auth/user';

/** The access file is a few lines an administrator writes: anything larger is not one. */
const MAX_FILE_BYTES = 1024 * 1024;

const Patterns = z.array(z.string().trim().min(1, 'a glob pattern').max(200)).max(1000);

/**
 * ADDIN_PORTFOLIO_ACCESS (docs/security.md, "Who may read a portfolio's history"): which
 * portfolios' history each Entra app role or group may read, and which the deployment key may.
 * Patterns are globs over the portfolio's name as its reports spell it (`*` any run of
 * characters, `?` one, `[ab]` one of a set), matched whole and case-sensitively.
 */
export const PortfolioAccessFile = z
  .object({
    /** App role (the token's `roles` claim) → patterns. */
    roles: z.record(z.string().min(1), Patterns).default({}),
    /** Group object id (the token's `groups` claim) → patterns. */
    groups: z.record(z.string().min(1), Patterns).default({}),
    /** With ADDIN_AUTH=key: the portfolios whoever holds the deployment key may read. */
    deployment_key: Patterns.default([]),
  })
  .strict();
export type PortfolioAccessFile = z.infer<typeof PortfolioAccessFile>;

export class PortfolioAccessError extends Error {
  override name = 'PortfolioAccessError';
}

/** Who may read which portfolio's history. */
export interface PortfolioAccess {
  /** Whether `user` (signed in as the host's auth mode says) may read `portfolio`'s history. */
  allows(user: RequestUser, portfolio: string): boolean;
}

/** A matcher per pattern list; a list of none matches nothing. */
type Matcher = (name: string) => boolean;
const NOTHING: Matcher = () => false;

function matcher(patterns: readonly string[]): Matcher {
  // bash: a `*` also matches `/` (a portfolio's name is not a path); dot: names may start with a dot.
  return patterns.length === 0 ? NOTHING : picomatch([...patterns], { bash: true, dot: true, nocase: false });
}

/**
 * The access the host grants, per its auth mode:
 * - `entra`: the union of the patterns of the token's app roles and groups; none: nothing;
 * - `key`: the file's `deployment_key` patterns; none: nothing;
 * - `none` (127.0.0.1 only, nobody identified): every portfolio — the host's only user is on its
 *   own machine, beside the database it reads.
 * Without a file (`rules` undefined), signed-in users and the key holder read nothing.
 */
export function portfolioAccess(mode: AuthMode, rules: PortfolioAccessFile | undefined): PortfolioAccess {
  if (mode === 'none') return { allows: () => true };
  if (!rules) return { allows: () => false };
  if (mode === 'key') {
    const key = matcher(rules.deployment_key);
    return { allows: (_user, portfolio) => key(portfolio) };
  }
  const byRole = new Map(Object.entries(rules.roles).map(([role, p]) => [role, matcher(p)]));
  const byGroup = new Map(Object.entries(rules.groups).map(([group, p]) => [group, matcher(p)]));
  return {
    allows: (user, portfolio) => {
      if (!user.signedIn) return false;
      const claims = user.claims ?? { roles: [], groups: [] };
      return claims.roles.some((r) => byRole.get(r)?.(portfolio) === true) || claims.groups.some((g) => byGroup.get(g)?.(portfolio) === true);
    },
  };
}

/**
 * Reads and checks the access file: a regular file (no FIFO or device: opened non-blocking and
 * checked before reading), at most 1 MiB, JSON of the shape above. An error names the file and
 * the field, never the file's content.
 */
export function readPortfolioAccessFile(file: string): PortfolioAccessFile {
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) throw new PortfolioAccessError(`ADDIN_PORTFOLIO_ACCESS ${file} is not a regular file.`);
    if (st.size > MAX_FILE_BYTES) throw new PortfolioAccessError(`ADDIN_PORTFOLIO_ACCESS ${file} is larger than ${MAX_FILE_BYTES} bytes: it is not an access file.`);
    const buf = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    text = buf.subarray(0, read).toString('utf8');
  } catch (err) {
    if (err instanceof PortfolioAccessError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new PortfolioAccessError(`ADDIN_PORTFOLIO_ACCESS ${file} cannot be read${code ? ` (${code})` : ''}.`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PortfolioAccessError(`ADDIN_PORTFOLIO_ACCESS ${file} is not JSON: write {"roles": {"ROLE": ["PATTERN", …]}, "groups": {…}, "deployment_key": […]}.`);
  }
  const parsed = PortfolioAccessFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
    throw new PortfolioAccessError(`ADDIN_PORTFOLIO_ACCESS ${file}: ${where}: ${issue.code === 'unrecognized_keys' ? `unknown key (allowed: roles, groups, deployment_key)` : issue.message}.`);
  }
  return parsed.data;
}
