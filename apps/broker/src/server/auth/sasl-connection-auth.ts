import { ApiVersions, ErrorCode, SaslAuthenticate, SaslHandshake } from '@weir/protocol';
import type { AuthFailureThrottle } from './auth-failure-throttle';
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

/** The outcome of one finished exchange, for `weir_authentications_total`. */
export interface AuthenticationOutcome {
  readonly mechanism: string;
  readonly result: 'success' | 'failure';
  readonly clientHost: string;
}

/** What a SASL listener does around its exchanges; both optional (unit tests leave them out). */
export interface SaslAuthHooks {
  /** Delays the answer to a failed exchange, growing per remote address. */
  readonly throttle?: AuthFailureThrottle;
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
    const result: SaslStepResult = await exchange.step(authBytes);
    switch (result.kind) {
      case 'challenge':
        this.#move('challenged', 'a challenge');
        return { errorCode: ErrorCode.NONE, errorMessage: null, authBytes: result.challenge };
      case 'authenticated':
        this.#move('authenticated', 'an acceptance');
        this.#principal = result.principal;
        this.#exchange = undefined;
        this.#report('success');
        return { errorCode: ErrorCode.NONE, errorMessage: null, authBytes: result.finalBytes };
      case 'rejected':
        this.#move('rejected', 'a refusal');
        this.#closeReason = `SASL ${this.#mechanism} authentication failed`;
        this.#exchange = undefined;
        this.#report('failure');
        // The answer (and the close after it) waits, so guesses from one address slow down.
        await this.hooks.throttle?.failed(this.clientHost);
        return {
          errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED,
          errorMessage: result.errorMessage,
          authBytes: NO_BYTES,
        };
    }
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
