import { parsesAsWritten, redactUrl, scrubUrl, urlAddress, urlParts } from '../redact-url';

/**
 * Errors in plain words, naming the folder or the server (host, port, database, user), never a
 * password: a database URL is redacted before it appears in any message.
 */

/** The database's URL as it may be printed: src/redact-url.ts, the one redaction for every URL. */
export { redactUrl };

/** The service's base URL as recorded with a run: no user, password, query or fragment (nor a trailing /). */
export function serviceUrlWithoutCredentials(url: string): string {
  return urlAddress(url).replace(/\/$/, '');
}

export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
}

/** An embedded database held by another process past the wait allowed (--db-wait): the message names the holder. */
export class DatabaseBusyError extends DatabaseError {}

/** The server and database a URL names, for messages: `host:port, database db, user u` (never a password, however spelt). */
export function describeServer(url: string): string {
  const p = urlParts(url);
  if (!p?.hostname) return `the PostgreSQL server at ${redactUrl(url)}`;
  let db = p.path.replace(/^\//, '');
  try {
    db = decodeURIComponent(db);
  } catch {
    /* shown as written */
  }
  return `the PostgreSQL server at ${p.hostname}:${p.port ?? '5432'} (database ${db || '(default)'}${p.user ? `, user ${p.user}` : ''})`;
}

/**
 * A URL the driver would read otherwise than it was written (a password with an unencoded `/`,
 * `@`, `#` or `?`): refused before the driver sees it, as the driver would quote it back.
 */
export function checkServerUrl(url: string): void {
  if (parsesAsWritten(url)) return;
  throw new DatabaseError(
    `Could not open ${describeServer(url)}: its URL cannot be read as written; characters such as / @ # ? % : in the user name or password must be percent-encoded (/ is %2F, @ is %40, # is %23, ? is %3F, % is %25, : is %3A)`,
  );
}

/** The driver's error codes that say why a server could not be opened (the rest keep their own message). */
export const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', '28P01', '28000', '3D000', '42501']);

/** A driver's error opening a server, said plainly with the server named; the password never appears. */
export function serverOpenError(url: string, error: unknown): DatabaseError {
  const e = error as { code?: string; message?: string };
  const where = describeServer(url);
  let why: string;
  switch (e.code) {
    case 'ECONNREFUSED':
      why = 'nothing is listening there (is the server running, and is the port right?)';
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      why = 'that host name could not be resolved';
      break;
    case 'ETIMEDOUT':
      why = 'the connection timed out';
      break;
    case '28P01':
    case '28000':
      why = 'the server refused the user name or password';
      break;
    case '3D000':
      why = 'that database does not exist on the server (create it first)';
      break;
    case '42501':
      why = "the user may not create the tables this tool needs (grant it CREATE on the database's public schema, or open it once as the database's owner)";
      break;
    default:
      // The driver's own words, with every trace of the URL taken out (ours are built from its parts).
      why = scrubUrl(e.message ?? String(error), url);
  }
  return new DatabaseError(`Could not open ${where}: ${why}`, { cause: error });
}

/** A folder the embedded database could not use, said plainly with the folder named. */
export function folderOpenError(path: string, error: unknown): DatabaseError {
  const e = error as { code?: string; message?: string };
  const why =
    e.code === 'EACCES' || e.code === 'EPERM'
      ? 'permission denied (choose a folder this user may write, with --db PATH)'
      : e.code === 'ENOTDIR' || e.code === 'EEXIST'
        ? 'it, or a folder above it, is a file, not a folder'
        : e.code === 'ENOSPC'
          ? 'the disk is full'
          : (e.message ?? String(error));
  return new DatabaseError(`Could not open the database folder ${path}: ${why}`, { cause: error });
}
