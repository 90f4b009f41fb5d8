/** The principal of a connection nobody has authenticated (a listener without SASL). */
export const ANONYMOUS_PRINCIPAL = 'User:ANONYMOUS';

/** The body of a SaslHandshake answer. */
export interface HandshakeAnswer {
  readonly errorCode: number;
  /** The mechanisms the listener offers, in every answer (Kafka lists them on success too). */
  readonly mechanisms: string[];
}

/** The body of a SaslAuthenticate answer, without the session lifetime (always 0: no re-auth). */
export interface AuthenticateAnswer {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly authBytes: Buffer;
}

/**
 * One connection's authentication: who is on the other end, which requests may be served yet, and
 * the SASL exchange that changes both. Requests on a connection are handled one at a time (only
 * Produce overlaps Produce), so none of these calls overlap.
 */
export interface ConnectionAuth {
  /** `User:<name>` once authenticated; {@link ANONYMOUS_PRINCIPAL} before or without SASL. */
  readonly principal: string;
  /**
   * Whether the connection may send frames of the listener's full size: true once SASL succeeded,
   * and from the start on a listener without SASL.
   */
  readonly authenticated: boolean;
  /** Whether a request of this API may be served now; one that may not closes the connection. */
  permits(apiKey: number): boolean;
  /** SaslHandshake at `version`: v0 means the exchange continues as raw tokens, v1 as requests. */
  handshake(mechanism: string, version: number): HandshakeAnswer;
  /** One round: a SaslAuthenticate request's bytes, or a raw token after a v0 handshake. */
  authenticate(authBytes: Buffer): Promise<AuthenticateAnswer>;
  /**
   * True after a v0 handshake until the exchange ends: the next frame is a bare SASL token (no
   * request header), answered by a bare token, as Kafka did before SaslAuthenticate existed.
   */
  readonly awaitsRawToken: boolean;
  /**
   * Set once the exchange has failed: the answer that says so is written, then the connection
   * closes for this reason.
   */
  readonly closeReason: string | undefined;
  /** The connection closed: an exchange still in progress gives back what it holds. */
  connectionClosed(): void;
}
