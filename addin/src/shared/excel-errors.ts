import './custom-functions-global';
import { InputError } from './input-error';
import { CancelledError } from '../dispatcher/outcome';
import { addinTranslator } from './display-language';
import type { Translator } from '../../../src/i18n';
import { isUnreachable } from './unreachable';

/** The service client's error fields this mapping reads (src/client/errors.ts ServiceError). */
interface ServiceErrorLike {
  status?: number;
  type?: string;
  message: string;
  name: string;
  field?: string;
  allowedValues?: readonly (string | number)[];
}

/** Excel shows at most 255 characters of a custom function's error message. */
const MAX_MESSAGE = 255;

function clip(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}

/**
 * Turns anything a function can fail with into the error its cell shows: bad input is
 * #VALUE! naming the argument; every service-side reason (unknown asset, tier without the
 * scope, service unreachable, budget spent) is #N/A with a sentence saying why.
 */
export function toExcelError(err: unknown): CustomFunctions.Error {
  const { Error: ExcelError, ErrorCode } = CustomFunctions;
  // The cell's message in Excel's display language; the service's own sentence inside it stays as the service wrote it.
  const tr = addinTranslator();
  if (err instanceof InputError) return new ExcelError(ErrorCode.invalidValue, clip(err.message));
  if (err instanceof CancelledError) return new ExcelError(ErrorCode.notAvailable, tr.t('addin.err_cancelled'));
  if (err instanceof Error) {
    const e = err as Error & ServiceErrorLike;
    if (e.status === 400 && e.field) {
      const text = e.allowedValues?.length ? tr.t('addin.err_allowed', { message: e.message, allowed: e.allowedValues.join(', ') }) : e.message;
      return new ExcelError(ErrorCode.invalidValue, clip(text));
    }
    return new ExcelError(ErrorCode.notAvailable, clip(reasonFor(e, tr)));
  }
  return new ExcelError(ErrorCode.notAvailable, tr.t('addin.err_no_answer'));
}

function reasonFor(e: Error & ServiceErrorLike, tr: Translator): string {
  // An asset id the service did not issue: the ids it listed show what one looks like.
  if (e.status === 404) {
    const reason = e.message.replace(/\.$/, '');
    return e.allowedValues?.length
      ? tr.t('addin.err_not_found_examples', { reason, examples: e.allowedValues.slice(0, 2).join(', ') })
      : tr.t('addin.err_not_found', { reason });
  }
  if (e.status === 403 && e.type === 'forbidden') return tr.t('addin.err_tier', { reason: e.message });
  // The host answers its own sign-in failures upstream as 502: a 401 from it is always about the user's sign-in.
  if (e.status === 401) return tr.t('addin.err_sign_in');
  if (isUnreachable(e)) return tr.t('addin.err_unreachable', { reason: unreachableDetail(e, tr) });
  return e.message;
}

/**
 * Why the answer could not be had. The shared client's own failures (no connection, no answer in
 * time) are about the add-in host, its only address here; their English sentences stay in English
 * as they always read, every other language says them from the catalogue (the URL and timeout in
 * them are for support, not the user). The add-in's own and the host's are already in the language.
 */
function unreachableDetail(e: Error & ServiceErrorLike, tr: Translator): string {
  if (tr.lang === 'en') return e.message;
  // By the client's error type, not its class: the functions and the pane are separate bundles, each with its copy of the client.
  if (e.type === 'connection_error') return tr.t('addin.host_unreachable');
  if (e.type === 'timeout') return tr.t('addin.fn_host_timeout');
  return e.message;
}
