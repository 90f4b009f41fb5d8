import { ErrorCode } from '@weir/protocol';
import { ANONYMOUS_PRINCIPAL, type ConnectionAuth } from './connection-auth';
import { type SaslAuthHooks, SaslConnectionAuth } from './sasl-connection-auth';
import { type SaslMechanism, type SaslPeer, UNKNOWN_PEER } from './sasl-mechanism';

/** How one listener authenticates its connections: a fresh {@link ConnectionAuth} per connection. */
export interface ListenerAuthenticator {
  /** The SASL mechanisms offered, in SaslHandshake's order; empty for a listener without SASL. */
  readonly mechanisms: readonly string[];
  /**
   * @param clientHost the remote address, whose failures slow down its later attempts
   * @param peer what TLS established about the client (its verified certificate's principal)
   */
  forConnection(clientHost: string, peer?: SaslPeer): ConnectionAuth;
}

/**
 * A listener without authentication: every connection is {@link ANONYMOUS_PRINCIPAL} from the
 * start. Its registry serves no SASL API, so handshake and authenticate are never reached; they
 * answer as a broker without the mechanism would.
 */
export const noAuthentication: ListenerAuthenticator = {
  mechanisms: [],
  forConnection: () => ({
    principal: ANONYMOUS_PRINCIPAL,
    authenticated: true,
    closeReason: undefined,
    awaitsRawToken: false,
    permits: () => true,
    connectionClosed: () => {},
    handshake: () => ({ errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms: [] }),
    authenticate: async () => ({
      errorCode: ErrorCode.ILLEGAL_SASL_STATE,
      errorMessage: 'SASL is not enabled here.',
      authBytes: Buffer.alloc(0),
    }),
  }),
};

/**
 * A SASL listener offering `mechanisms`: nothing but ApiVersions and SASL before authentication;
 * `hooks` delay failures and count outcomes.
 */
export function saslAuthenticator(
  mechanisms: readonly SaslMechanism[],
  hooks: SaslAuthHooks = {},
): ListenerAuthenticator {
  const byName = new Map(mechanisms.map((mechanism) => [mechanism.name, mechanism]));
  if (byName.size !== mechanisms.length) throw new Error('a SASL mechanism is listed twice');
  return {
    mechanisms: [...byName.keys()],
    forConnection: (clientHost, peer = UNKNOWN_PEER) =>
      new SaslConnectionAuth(byName, clientHost, hooks, peer),
  };
}
