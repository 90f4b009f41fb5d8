import type { ApiSchema, RequestHeader, RequestOf, ResponseOf } from '@weir/protocol';
import type { BrokerCommands } from '../commands/broker-commands';
import type { ListenerName } from '../commands/cluster-commands';
import type { RequestAccess } from '../security/acl/request-access';
import type { ConnectionAuth } from './auth/connection-auth';

/** Who sent a request and over which connection, and what it may do. */
export interface RequestContext {
  header: RequestHeader;
  /** The authenticated principal; "User:ANONYMOUS" on a listener without authentication. */
  principal: string;
  /**
   * The listener the request arrived on. Metadata and FindCoordinator answer with this listener's
   * endpoint, as Kafka does, so a client keeps talking to the listener it bootstrapped from.
   */
  listenerName: ListenerName;
  /** The connection's authentication; only the SASL handlers change it. */
  auth: ConnectionAuth;
  clientHost: string;
  /** Aborted when the connection closes, so long waits (fetch) stop early. */
  signal: AbortSignal;
  /**
   * The authorization policy for this principal and host. Handlers check every resource they
   * pass to a command with the API's rules (`API_ACL_RULES`) and answer denied items with the
   * rule's error, without passing them on.
   */
  access: RequestAccess;
}

/**
 * One Kafka API served by the broker. Handlers translate between the wire and the internal command
 * boundary and nothing else: no storage, no coordination logic. `versions` is what the broker
 * advertises, a subset of what the codec defines.
 */
export interface ApiHandler<A extends ApiSchema = ApiSchema> {
  readonly api: A;
  readonly versions: { min: number; max: number };
  /** The response, or undefined when the request gets none (Produce with acks=0). */
  handle(
    request: RequestOf<A>,
    context: RequestContext,
    commands: BrokerCommands,
  ): Promise<ResponseOf<A> | undefined>;
}

/** Declares a handler with its types tied to its API schema. */
export function defineHandler<A extends ApiSchema>(handler: ApiHandler<A>): ApiHandler<A> {
  return handler;
}
