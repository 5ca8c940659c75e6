import './custom-functions-global';
import { InputError } from './input-error';
import { CancelledError } from '../dispatcher/outcome';
import { SIGN_IN_MESSAGE } from './sign-in';
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
  if (err instanceof InputError) return new ExcelError(ErrorCode.invalidValue, clip(err.message));
  if (err instanceof CancelledError) return new ExcelError(ErrorCode.notAvailable, 'The calculation was cancelled.');
  if (err instanceof Error) {
    const e = err as Error & ServiceErrorLike;
    if (e.status === 400 && e.field) {
      const allowed = e.allowedValues?.length ? ` Allowed: ${e.allowedValues.join(', ')}.` : '';
      return new ExcelError(ErrorCode.invalidValue, clip(`${e.message}${allowed}`));
    }
    return new ExcelError(ErrorCode.notAvailable, clip(reasonFor(e)));
  }
  return new ExcelError(ErrorCode.notAvailable, 'The valuation service could not answer.');
}

function reasonFor(e: Error & ServiceErrorLike): string {
  // An asset id the service did not issue: the ids it listed show what one looks like.
  if (e.status === 404) {
    const examples = e.allowedValues?.length ? `; for example ${e.allowedValues.slice(0, 2).join(', ')}` : '';
    return `Not found: ${e.message.replace(/\.$/, '')}${examples}.`;
  }
  if (e.status === 403 && e.type === 'forbidden') return `Your subscription does not include this: ${e.message}`;
  // The host answers its own sign-in failures upstream as 502: a 401 from it is always about the user's sign-in.
  if (e.status === 401) return SIGN_IN_MESSAGE;
  if (isUnreachable(e)) {
    return `The valuation service is unreachable: ${e.message}`;
  }
  return e.message;
}
