import type { ServiceError } from './errors';

/**
 * One item's result: its value, or why it has none. The one outcome type of the project:
 * the client's bulk runs answer `Outcome<T>` (a ServiceError), the add-in's dispatcher, which
 * also meets cancellations and host errors, uses `Outcome<T, Error>`.
 */
export type Outcome<T, E extends Error = ServiceError> = { ok: true; value: T } | { ok: false; error: E };

/** @deprecated The same type under its older name, kept so code written against it still compiles: use `Outcome<T>`. */
export type ItemOutcome<T> = Outcome<T>;
