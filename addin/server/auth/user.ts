import { inEnglish, type HostText } from '../host-text';
/** Who a request is for: the signed-in user in `entra` mode; in `key` and `none` modes the caller's address (nobody is identified). */
export interface RequestUser {
  /** Stable key for fair share and limits: the token's `oid` (object id), else `sub`; `address:<ip>` without sign-in. */
  id: string;
  /** Shown in the pane and the audit log: `name`, else `preferred_username`; null without sign-in. */
  name: string | null;
  signedIn: boolean;
  /** A verified token's app roles (`roles`) and group object ids (`groups`): what ADDIN_PORTFOLIO_ACCESS maps to portfolios. */
  claims?: { roles: readonly string[]; groups: readonly string[] };
}

export function anonymousUser(remoteAddress: string | undefined): RequestUser {
  return { id: `address:${remoteAddress ?? 'unknown'}`, name: null, signedIn: false };
}

/**
 * A refusal of the sign-in: 401 (no or bad token), 403 (signed in but not allowed) or 503 (the
 * sign-in provider cannot be reached). Messages say what to do, never what the token held.
 */
export class AuthRefusal extends Error {
  /** The sentence, said in the request's language when the host composed it (host-text.ts). */
  readonly text: string | HostText;
  constructor(
    readonly status: 401 | 403 | 503,
    readonly type: string,
    message: string | HostText,
    readonly details: {
      /** Who the token stands for, when its signature verified (a missing role, an expired sign-in): the audit line names them. */
      user?: RequestUser;
      /** When asking again may help (503). */
      retryAfterMs?: number;
    } = {},
  ) {
    super(inEnglish(message));
    this.text = message;
  }
}
