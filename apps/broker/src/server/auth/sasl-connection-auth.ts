import { ApiVersions, ErrorCode, SaslAuthenticate, SaslHandshake } from '@weir/protocol';
import type { AuthFailureThrottle } from './auth-failure-throttle';
import type { AuthenticationSlot, AuthenticationsInProgress } from './authentications-in-progress';
import {
  ANONYMOUS_PRINCIPAL,
  type AuthenticateAnswer,
  type ConnectionAuth,
  type HandshakeAnswer,
} from './connection-auth';
import {
  type SaslMechanism,
  type SaslPeer,
  type SaslServerExchange,
  type SaslStepResult,
  UNKNOWN_PEER,
} from './sasl-mechanism';
import { nextSaslState, type SaslEvent, type SaslState } from './sasl-states';

/** What a connection may send before it has authenticated (Kafka's rule, docs/kafka-compat.md §4, §7). */
const BEFORE_AUTHENTICATION = new Set([ApiVersions.apiKey, SaslHandshake.apiKey, SaslAuthenticate.apiKey]);

const NO_BYTES = Buffer.alloc(0);

/** Claimed user names are counted by at most this many characters. */
const MAX_USERNAME_KEY_CHARS = 256;

/** The place of an exchange on a listener that does not count them. */
const NO_SLOT: AuthenticationSlot = { release: () => {} };

/** The outcome of one finished exchange, for `weir_authentications_total`. */
export interface AuthenticationOutcome {
  readonly mechanism: string;
  /** `refused`: too many exchanges in progress from the address or for the user; nothing was checked. */
  readonly result: 'success' | 'failure' | 'refused';
  readonly clientHost: string;
}

/** What a SASL listener does around its exchanges; both optional (unit tests leave them out). */
export interface SaslAuthHooks {
  /** Delays the answer to a failed exchange, growing per remote address. */
  readonly throttle?: AuthFailureThrottle;
  /** Caps the exchanges in progress per address and per user. */
  readonly inProgress?: AuthenticationsInProgress;
  readonly onOutcome?: (outcome: AuthenticationOutcome) => void;
}

/**
 * The authentication of one connection on a SASL listener: SaslHandshake picks a mechanism, then
 * SaslAuthenticate rounds run it until it accepts or refuses. Every state change goes through the
 * transition table in `sasl-states`; anything out of sequence before authentication fails the
 * exchange, so the connection closes after its answer.
 */
export class SaslConnectionAuth implements ConnectionAuth {
  #state: SaslState = 'awaiting-handshake';
  #principal = ANONYMOUS_PRINCIPAL;
  #mechanism: string | undefined;
  #exchange: SaslServerExchange | undefined;
  #closeReason: string | undefined;
  /** Held from the exchange's first round until it ends or the connection closes. */
  #slot: AuthenticationSlot | undefined;
  /** The user name the first round claimed, for the failure delay per user. */
  #claimedUsername: string | undefined;

  constructor(
    private readonly mechanisms: ReadonlyMap<string, SaslMechanism>,
    private readonly clientHost: string,
    private readonly hooks: SaslAuthHooks = {},
    /** Handed to the chosen mechanism, so it can see a verified client certificate. */
    private readonly peer: SaslPeer = UNKNOWN_PEER,
  ) {}

  get state(): SaslState {
    return this.#state;
  }

  get principal(): string {
    return this.#principal;
  }

  get authenticated(): boolean {
    return this.#state === 'authenticated';
  }

  get closeReason(): string | undefined {
    return this.#closeReason;
  }

  get awaitsRawToken(): boolean {
    return this.#state === 'awaiting-raw-token';
  }

  connectionClosed(): void {
    this.#slot?.release();
  }

  permits(apiKey: number): boolean {
    return this.#state === 'authenticated' || BEFORE_AUTHENTICATION.has(apiKey);
  }

  handshake(mechanism: string, version: number): HandshakeAnswer {
    const offered = [...this.mechanisms.keys()];
    const chosen = this.mechanisms.get(mechanism);
    const accepted: SaslEvent = version === 0 ? 'mechanism-accepted-raw' : 'mechanism-accepted';
    const event: SaslEvent = chosen === undefined ? 'mechanism-refused' : accepted;
    if (!this.#move(event, `SaslHandshake while ${this.#state}`)) {
      return { errorCode: ErrorCode.ILLEGAL_SASL_STATE, mechanisms: offered };
    }
    if (chosen === undefined) {
      this.#closeReason = 'SaslHandshake named a mechanism this listener does not offer';
      return { errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms: offered };
    }
    this.#mechanism = chosen.name;
    this.#exchange = chosen.start(this.peer);
    return { errorCode: ErrorCode.NONE, mechanisms: offered };
  }

  async authenticate(authBytes: Buffer): Promise<AuthenticateAnswer> {
    const exchange = this.#exchange;
    const exchanging = this.#state === 'awaiting-authenticate' || this.#state === 'awaiting-raw-token';
    if (!exchanging || exchange === undefined) {
      this.#refuseOutOfSequence(`SaslAuthenticate while ${this.#state}`);
      return {
        errorCode: ErrorCode.ILLEGAL_SASL_STATE,
        errorMessage: `SaslAuthenticate is not expected while the connection is ${this.#state}.`,
        authBytes: NO_BYTES,
      };
    }
    if (this.#slot === undefined) {
      const refusal = this.#startExchange(authBytes);
      if (refusal !== undefined) return refusal;
    }
    const result: SaslStepResult = await exchange.step(authBytes);
    switch (result.kind) {
      case 'challenge':
        this.#move('challenged', 'a challenge');
        return { errorCode: ErrorCode.NONE, errorMessage: null, authBytes: result.challenge };
      case 'authenticated':
        this.#move('authenticated', 'an acceptance');
        this.#principal = result.principal;
        this.#exchange = undefined;
        this.#slot?.release();
        this.#report('success');
        return { errorCode: ErrorCode.NONE, errorMessage: null, authBytes: result.finalBytes };
      case 'rejected':
        this.#move('rejected', 'a refusal');
        this.#closeReason = `SASL ${this.#mechanism} authentication failed`;
        this.#exchange = undefined;
        this.#report('failure');
        // The answer (and the close after it) waits, so guesses from one address, or at one
        // user, slow down; the exchange keeps its place in the counts meanwhile.
        await this.hooks.throttle?.failed(this.clientHost, this.#claimedUsername);
        this.#slot?.release();
        return {
          errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED,
          errorMessage: result.errorMessage,
          authBytes: NO_BYTES,
        };
    }
  }

  /**
   * Takes this exchange's place among those in progress, or refuses it (without checking the
   * credentials) when its address or its claimed user already has as many as allowed.
   */
  #startExchange(firstMessage: Buffer): AuthenticateAnswer | undefined {
    const claimed = this.mechanisms.get(this.#mechanism ?? '')?.claimedUsername?.(firstMessage);
    // Bounded, so a client cannot make a table key of a huge claimed name.
    this.#claimedUsername = claimed?.slice(0, MAX_USERNAME_KEY_CHARS);
    const start = this.hooks.inProgress?.tryStart(this.clientHost, this.#claimedUsername);
    if (start === undefined) {
      this.#slot = NO_SLOT;
      return undefined;
    }
    if (start.started) {
      this.#slot = start.slot;
      return undefined;
    }
    this.#move('rejected', 'a refusal');
    this.#exchange = undefined;
    const what = start.refusedFor === 'address' ? 'from this address' : 'for this user';
    this.#closeReason = `SASL ${this.#mechanism} authentication refused: too many in progress ${what}`;
    this.#report('refused');
    return {
      errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED,
      errorMessage: `Authentication refused: too many authentications in progress ${what}; retry later`,
      authBytes: NO_BYTES,
    };
  }

  #report(result: AuthenticationOutcome['result']): void {
    this.hooks.onOutcome?.({ mechanism: this.#mechanism ?? 'unknown', result, clientHost: this.clientHost });
  }

  /** Applies an event; an event the table does not allow is refused as out of sequence. */
  #move(event: SaslEvent, what: string): boolean {
    const next = nextSaslState(this.#state, event);
    if (next === undefined) {
      this.#refuseOutOfSequence(what);
      return false;
    }
    this.#state = next;
    return true;
  }

  /**
   * An authenticated connection keeps working after an out-of-sequence SASL request (Kafka answers
   * it with ILLEGAL_SASL_STATE and carries on); before authentication it fails the exchange.
   */
  #refuseOutOfSequence(what: string): void {
    if (this.#state === 'authenticated') return;
    this.#state = 'failed';
    this.#closeReason ??= `${what} is out of sequence`;
  }
}
