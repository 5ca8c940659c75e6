/** A formula argument Excel users can fix: shown as #VALUE! with a message naming the argument. */
export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly argument: string,
    message: string,
    readonly allowedValues?: readonly (string | number)[],
  ) {
    super(message);
  }
}

/** What Excel hands a custom function for an omitted optional argument (null), or an empty cell. */
export function isMissing(value: unknown): value is null | undefined | '' {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}
