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
  /** Starts the exchange of one connection. */
  start(): SaslServerExchange;
}
