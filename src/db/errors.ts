/**
 * Errors in plain words, naming the folder or the server (host, port, database, user), never a
 * password: a database URL is redacted before it appears in any message.
 */

/** postgres://user:secret@host:5432/db → postgres://user@host:5432/db (the password, and any `password` parameter, removed). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    for (const key of [...u.searchParams.keys()]) if (/pass|secret|token|key/i.test(key)) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    // Not parseable: cut anything between the scheme's // and an @.
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** The service's base URL as recorded with a run: no user, password, query or fragment. */
export function serviceUrlWithoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//').replace(/[?#].*$/, '');
  }
}

export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
}

/** The server and database a URL names, for messages: `host:port, database db, user u`. */
export function describeServer(url: string): string {
  try {
    const u = new URL(url);
    const db = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)';
    return `the PostgreSQL server at ${u.hostname}:${u.port || '5432'} (database ${db}${u.username ? `, user ${decodeURIComponent(u.username)}` : ''})`;
  } catch {
    return `the PostgreSQL server at ${redactUrl(url)}`;
  }
}

/** The driver's error codes that say why a server could not be opened (the rest keep their own message). */
export const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', '28P01', '28000', '3D000', '42501']);

/** A driver's error opening a server, said plainly with the server named; the password never appears. */
export function serverOpenError(url: string, error: unknown): DatabaseError {
  const e = error as { code?: string; message?: string };
  const where = describeServer(url);
  const password = passwordOf(url);
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
      why = e.message ?? String(error);
  }
  if (password) why = why.split(password).join('***');
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

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
