import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SCOPES, TIERS, TIER_NAMES, parseScope, type Scope, type TierName } from '../wire';

/** An account of the sandbox, as given in code or in an --accounts JSON file. */
export interface AccountConfig {
  client_id: string;
  client_secret: string;
  tier: TierName;
  /** Space-separated scopes; narrows the tier's scopes (it never widens them). */
  scope?: string;
  /** Overrides the tier's published limit (any tier; enterprise accounts usually set them). */
  per_minute?: number;
  per_day?: number;
}

/** An account ready for the server: limits and scopes resolved once. */
export interface Account {
  clientId: string;
  /** Kept only to compare against in constant time; never logged or returned. */
  secret: string;
  tier: TierName;
  scopes: readonly Scope[];
  perMinute: number;
  perDay: number;
}

/** Public demo credentials: printed on start, fine to commit. */
export const DEMO_ACCOUNTS: readonly AccountConfig[] = [
  { client_id: 'demo-starter', client_secret: 'demo-starter-secret', tier: 'starter' },
  { client_id: 'demo-pro', client_secret: 'demo-pro-secret', tier: 'pro' },
  { client_id: 'demo-enterprise', client_secret: 'demo-enterprise-secret', tier: 'enterprise' },
];

const Limit = z.number().int().positive();
const AccountConfigSchema = z.object({
  client_id: z.string().trim().min(1).max(200),
  client_secret: z.string().min(1).max(500),
  tier: z.enum(TIER_NAMES),
  scope: z
    .string()
    .refine((s) => s.split(/\s+/).filter(Boolean).every((p) => (SCOPES as readonly string[]).includes(p)), {
      message: `scope lists only ${SCOPES.join(', ')}`,
    })
    .optional(),
  per_minute: Limit.optional(),
  per_day: Limit.optional(),
});
const AccountListSchema = z.array(AccountConfigSchema).min(1);

/** Checks account configs (from code or a file); the message names the entry and field, never a secret. */
export function validateAccounts(input: unknown, source = 'accounts'): AccountConfig[] {
  const parsed = AccountListSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new Error(`${source}${where}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const a of parsed.data) {
    if (seen.has(a.client_id)) throw new Error(`${source}: client_id '${a.client_id}' appears twice`);
    seen.add(a.client_id);
  }
  return parsed.data;
}

export function loadAccountsFile(path: string): AccountConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read accounts file ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`accounts file ${path} is not valid JSON (expected an array of {client_id, client_secret, tier, scope?, per_minute?, per_day?})`);
  }
  return validateAccounts(json, path);
}

export function resolveAccount(c: AccountConfig): Account {
  const tier = TIERS[c.tier];
  const wanted = c.scope === undefined ? tier.scopes : parseScope(c.scope);
  return {
    clientId: c.client_id,
    secret: c.client_secret,
    tier: c.tier,
    scopes: tier.scopes.filter((s) => wanted.includes(s)),
    perMinute: c.per_minute ?? tier.perMinute,
    perDay: c.per_day ?? tier.perDay,
  };
}
