/**
 * Where one connection is in its SASL exchange. A connection on a SASL listener starts awaiting the
 * handshake; only `authenticated` lets ordinary requests through, and `failed` is final: the
 * connection closes once the answer that failed it is written. After SaslHandshake v0 the exchange
 * runs in `awaiting-raw-token`: the next frames are bare SASL tokens, not requests.
 */
export type SaslState =
  | 'awaiting-handshake'
  | 'awaiting-authenticate'
  | 'awaiting-raw-token'
  | 'authenticated'
  | 'failed';

/** What happened in the exchange; each event moves the state along {@link SASL_TRANSITIONS}. */
export type SaslEvent =
  /** SaslHandshake v1 named a mechanism the listener offers: SaslAuthenticate requests follow. */
  | 'mechanism-accepted'
  /** SaslHandshake v0 named an offered mechanism: raw length-prefixed tokens follow (Kafka < 1.0). */
  | 'mechanism-accepted-raw'
  /** SaslHandshake named a mechanism the listener does not offer. */
  | 'mechanism-refused'
  /** A round (request or raw token) the mechanism answers with a challenge (SCRAM's first). */
  | 'challenged'
  /** The mechanism accepted the credentials. */
  | 'authenticated'
  /** The mechanism refused the credentials. */
  | 'rejected';

/**
 * The whole state machine as data, so a new mechanism cannot add a path by accident and a test can
 * walk every pair. A pair that is missing is out of sequence: the broker answers
 * ILLEGAL_SASL_STATE and closes the connection, as Kafka does.
 */
export const SASL_TRANSITIONS: Readonly<Record<SaslState, Readonly<Partial<Record<SaslEvent, SaslState>>>>> =
  {
    'awaiting-handshake': {
      'mechanism-accepted': 'awaiting-authenticate',
      'mechanism-accepted-raw': 'awaiting-raw-token',
      'mechanism-refused': 'failed',
    },
    'awaiting-authenticate': {
      challenged: 'awaiting-authenticate',
      authenticated: 'authenticated',
      rejected: 'failed',
    },
    'awaiting-raw-token': {
      challenged: 'awaiting-raw-token',
      authenticated: 'authenticated',
      rejected: 'failed',
    },
    // Re-authentication (KIP-368) is not offered, so nothing moves an authenticated connection.
    authenticated: {},
    failed: {},
  };

/** The state after `event`, or undefined when the event is out of sequence in `state`. */
export function nextSaslState(state: SaslState, event: SaslEvent): SaslState | undefined {
  return SASL_TRANSITIONS[state][event];
}
