import path from 'node:path';

/** Why a request target was refused before any route saw it. */
export class BadPathError extends Error {
  override name = 'BadPathError';
}

/**
 * The request's path, percent-decoded exactly once, for every decision the host makes
 * (private files, traversal, routes). A path whose decoded form is not already normal
 * (`..` or `.` segments, `//`, which only encoded slashes and dots can still produce after
 * the URL parser) is refused rather than resolved, as are control characters, backslashes and
 * malformed escapes: nothing downstream decodes again, so what was checked is what is served.
 * The host answers a refused path 404, as any other name it does not serve: whether a spelling
 * is "bad" or merely unknown tells a prober nothing.
 */
export function decodeRequestPath(encodedPathname: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encodedPathname);
  } catch {
    throw new BadPathError('The path is not valid: a malformed percent escape.');
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) throw new BadPathError('The path is not valid: control characters or backslashes.');
  if (!decoded.startsWith('/') || path.posix.normalize(decoded) !== decoded || decoded.split('/').some((s) => s === '.' || s === '..')) {
    throw new BadPathError('The path is not valid: dot segments or empty segments.');
  }
  return decoded;
}
