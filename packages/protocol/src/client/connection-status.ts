import type { WeirError } from '../errors/weir-error';
import type { BrokerApiVersions } from './api-versions';

/** Why a connection closed. */
export type ConnectionCloseReason =
  /** `close()` was called. */
  | 'closed-by-client'
  /** The socket could not be opened, or ApiVersions negotiation or SASL authentication failed. */
  | 'connect-failed'
  /** The broker closed the socket, or the socket failed. */
  | 'peer-closed'
  /**
   * A request passed its deadline. The connection is closed because the position of the response
   * stream is then unknown: a late answer would be matched to the wrong request.
   */
  | 'request-timed-out'
  /** The broker sent something that is not a valid answer (bad frame, unexpected correlation id). */
  | 'protocol-error';

/**
 * The state of a {@link Connection}, as a discriminated union on `state`. A connection moves
 * `connecting` → `ready` → `closed`, or `connecting` → `closed`; it never reopens.
 */
export type ConnectionStatus =
  | { readonly state: 'connecting' }
  /** The socket is open and the broker's API versions are known. */
  | { readonly state: 'ready'; readonly apiVersions: BrokerApiVersions }
  /** Final. `error` says what failed; it is undefined after `close()`. */
  | {
      readonly state: 'closed';
      readonly reason: ConnectionCloseReason;
      readonly error: WeirError | undefined;
    };

/** Called on every status change, after the change is complete. */
export type ConnectionStatusListener = (status: ConnectionStatus) => void;
