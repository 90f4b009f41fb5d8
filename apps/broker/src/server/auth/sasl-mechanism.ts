/** The result of one SaslAuthenticate round on the broker's side. */
export type SaslStepResult =
  /** More rounds follow; `challenge` goes back to the client in `authBytes`. */
  | { readonly kind: 'challenge'; readonly challenge: Buffer }
  /** The client is who it says; `finalBytes` (empty for most mechanisms) go back to it. */
  | { readonly kind: 'authenticated'; readonly principal: string; readonly finalBytes: Buffer }
  /**
   * The credentials are refused. `errorMessage` goes to the client, so it must never contain what
   * the client sent.
   */
  | { readonly kind: 'rejected'; readonly errorMessage: string };

/**
 * What the transport has already established about the connection an exchange runs on. A mechanism
 * may take it into account (WEIR-TOKEN trusts some client certificates); the others ignore it.
 */
export interface SaslPeer {
  /**
   * The principal of the client certificate the TLS handshake verified, as the listener's
   * `principalMapping` derives it; undefined on plaintext, without a certificate, or when the
   * listener asks for none.
   */
  readonly certificatePrincipal: string | undefined;
}

/** A connection about whose transport nothing is known (plaintext, or unit tests). */
export const UNKNOWN_PEER: SaslPeer = { certificatePrincipal: undefined };

/** One client's exchange with a mechanism; it may keep state between rounds (SCRAM's nonces). */
export interface SaslServerExchange {
  step(authBytes: Buffer): Promise<SaslStepResult>;
}

/**
 * A SASL mechanism the broker offers on a listener, by the name clients put in SaslHandshake
 * (uppercase, as kafkajs compares names). PLAIN and SCRAM join WEIR-TOKEN by implementing this.
 */
export interface SaslMechanism {
  readonly name: string;
  /** Starts the exchange of one connection; without `peer`, nothing is known about its transport. */
  start(peer?: SaslPeer): SaslServerExchange;
  /**
   * The user name a client's first message claims, read without checking anything, so concurrent
   * attempts per user can be counted before the credentials are; undefined when it names none.
   */
  claimedUsername?(firstMessage: Buffer): string | undefined;
}
