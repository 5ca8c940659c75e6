import { z } from 'zod';
import { plainString } from './primitives';

/** The six scope areas a token can carry. */
export const SCOPES = ['valuations', 'scores', 'projections', 'signals', 'portfolio', 'exit'] as const;
export type Scope = (typeof SCOPES)[number];

export const TokenRequest = z.object({
  client_id: plainString().min(1).max(200),
  client_secret: plainString().min(1).max(500),
  grant_type: z.literal('client_credentials'),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const RefreshRequest = z.object({
  refresh_token: plainString().min(1).max(2000),
  grant_type: z.literal('refresh_token'),
});
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const TokenResponse = z.object({
  access_token: z.string().min(1),
  /** Not in the spec's token response; ours always carries one (docs/decisions.md). */
  refresh_token: z.string().min(1).optional(),
  /** Bearer in any case, spelt out so the JSON Schema pattern (which has no flags) means the same. */
  token_type: z.string().regex(/^[Bb][Ee][Aa][Rr][Ee][Rr]$/, 'Bearer'),
  expires_in: z.number().int().positive(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export function parseScope(scope: string | undefined): Scope[] {
  if (!scope) return [];
  return scope.split(/\s+/).filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
}
