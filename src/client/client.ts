import { ScoreRequest, ValuationRequest, type BatchValuationItem, type Currency, type ScoreObject } from '../wire';
import { runBulk, type BulkOptions } from './bulk';
import { accountKey, sharedGate } from './gate-registry';
import { configureJitless } from './jitless';
import type { ClientLogger } from './logger';
import type { Outcome } from './outcome';
import { resolveOptions, type ClientOptions } from './options';
import type { AccountGate, RateLimitStatus } from './rate-gate';
import { Exits, Portfolios, Projections, Scores, Segments, Signals, Valuations } from './resources';
import { CredentialsTokenSource, ProviderTokenSource } from './tokens';
import { Transport, type RequestOptions } from './transport';

export interface ValueAllOptions extends BulkOptions<BatchValuationItem> {
  /** Currency of every valuation in the run (USD when absent). */
  currency?: Currency;
}

/** What a caller needs to size a window of calls in flight by Little's law: in flight ≈ callsPerMs × roundTripMs. */
export interface Pacing {
  /** The rate gate's pace for the account (undefined while no limit is known). */
  callsPerMs: number | undefined;
  /** Moving average of this client's answered calls, gate wait excluded (undefined before the first answer). */
  roundTripMs: number | undefined;
  /** Calls the round-trip average is made of. */
  samples: number;
}

/**
 * The one client of the valuation service, for Node and for the add-in's browser runtime.
 * See docs/client.md.
 */
export class ServiceClient {
  readonly valuations: Valuations;
  readonly scores: Scores;
  readonly projections: Projections;
  readonly signals: Signals;
  readonly portfolio: Portfolios;
  readonly exit: Exits;
  readonly segments: Segments;

  private readonly gate: AccountGate;
  private readonly transport: Transport;
  private readonly concurrency: number | undefined;
  private readonly signIn: (opts: RequestOptions) => Promise<unknown>;

  constructor(options: ClientOptions) {
    configureJitless(options.jitless ?? 'auto');
    const o = resolveOptions(options, accountKey);
    this.gate = options.rateGate ?? sharedGate(o.gateKey, o.gateLimits);
    // An injected gate learns the tier's limits like a shared one would (it keeps the stricter).
    if (options.rateGate) options.rateGate.tighten(o.gateLimits);
    this.concurrency = options.concurrency;
    const transport = new Transport({ ...o, logger: options.logger, gate: this.gate, onCall: options.onCall });
    this.transport = transport;
    this.signIn = signInCheck(options, transport);
    transport.useTokens(tokenSource(options, transport, options.logger));
    this.valuations = new Valuations(transport);
    this.scores = new Scores(transport);
    this.projections = new Projections(transport);
    this.signals = new Signals(transport);
    this.portfolio = new Portfolios(transport);
    this.exit = new Exits(transport);
    this.segments = new Segments(transport);
  }

  /** Values any number of assets through batches of 50 (see runBulk); one outcome per item, in input order. */
  valueAll(items: readonly ValuationRequest[], opts: ValueAllOptions = {}): Promise<Outcome<BatchValuationItem>[]> {
    const { currency } = opts;
    return runBulk<BatchValuationItem>(
      items,
      {
        operation: 'batchValuations',
        itemSchema: ValuationRequest,
        // Items were checked one by one already; the chunk is not parsed again.
        send: async (assets, ro) => (await this.transport.call('batchValuations', { body: { assets, currency }, checked: true }, ro)).valuations,
        answeredId: (v) => v.asset_id,
      },
      { concurrency: this.concurrency, ...opts },
    );
  }

  /** Scores any number of assets through batches of 50; one outcome per item, in input order. */
  scoreAll(items: readonly ScoreRequest[], opts: BulkOptions<ScoreObject> = {}): Promise<Outcome<ScoreObject>[]> {
    return runBulk<ScoreObject>(
      items,
      {
        operation: 'batchScores',
        itemSchema: ScoreRequest,
        send: async (assets, ro) => (await this.transport.call('batchScores', { body: { assets }, checked: true }, ro)).scores,
        answeredId: (v) => v.asset_id,
      },
      { concurrency: this.concurrency, ...opts },
    );
  }

  /** The account's budgets as this process sees them (shared by every client of the account). */
  rateLimitStatus(): RateLimitStatus {
    return this.gate.status();
  }

  /**
   * True once any answer (success or error, token calls included) carried `x-sandbox: true`:
   * the data is simulated, whatever the configuration says. Never goes back to false.
   */
  get servedBySandbox(): boolean {
    return this.transport.servedBySandbox;
  }

  /**
   * Signs in afresh with the client credentials and forgets the answer: proof that the service
   * is reachable and still accepts them (a held token may outlive revoked credentials). Token
   * calls pass outside the rate gate and spend none of the account's budget. With a token
   * provider instead, asks it for a token. Rejects with the call's typed error.
   */
  async verifySignIn(opts: RequestOptions = {}): Promise<void> {
    await this.signIn(opts);
  }

  /** The gate's pace and the observed round trip, read at the moment of the call. */
  pacing(): Pacing {
    return { callsPerMs: this.gate.callsPerMs, roundTripMs: this.transport.roundTrip.ms, samples: this.transport.roundTrip.samples };
  }
}

function signInCheck(options: ClientOptions, transport: Transport): (opts: RequestOptions) => Promise<unknown> {
  const { clientId, clientSecret, tokenProvider } = options;
  if (clientId === undefined || clientSecret === undefined) return async ({ signal }) => tokenProvider?.({ forceRefresh: false, signal });
  // Once, no retries: a probe that retried would hide the failure it is there to see.
  return (opts) => transport.call('createToken', { body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' } }, { ...opts, maxRetries: 0 });
}

function tokenSource(options: ClientOptions, transport: Transport, logger: ClientLogger | undefined) {
  const { clientId, clientSecret } = options;
  if (clientId === undefined || clientSecret === undefined) return new ProviderTokenSource(options.tokenProvider);
  return new CredentialsTokenSource(
    {
      issue: () => transport.call('createToken', { body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' } }),
      refresh: (refreshToken) => transport.call('refreshToken', { body: { refresh_token: refreshToken, grant_type: 'refresh_token' } }),
    },
    logger,
  );
}
