import type { ApiSchema, RequestHeader, RequestOf, ResponseInputOf } from '@weir/protocol';
import type { BrokerServices } from '../broker-services';
import type { ListenerName } from '../metadata/cluster-view';
import type { RequestQuota } from '../quotas/request-quota';
import type { RequestAccess } from '../security/acl/request-access';
import type { ConnectionAuth } from './auth/connection-auth';
import type { RequestErrors } from './request-errors';

/**
 * Who sent a request and over which connection, what it may do, and how its failures become wire
 * errors: `failure(error)` for a thrown value, `errorOf(result)` for a failed item result, the
 * only conversions handlers use (the convention is in request-errors.ts).
 */
export interface RequestContext extends RequestErrors {
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
   * pass to a service with the API's rules (`API_ACL_RULES`) and answer denied items with the
   * rule's error, without passing them on.
   */
  access: RequestAccess;
  /** The sender's client quotas (docs/architecture.md §9); unlimited where none are enforced. */
  quota: RequestQuota;
  /** The size of the request frame, what Kafka charges a Produce to producer_byte_rate. */
  requestBytes: number;
}

/**
 * One Kafka API served by the broker. Handlers translate between the wire and the broker's domain
 * services and nothing else: no storage, no coordination logic. `versions` is what the broker
 * advertises, a subset of what the codec defines. `Services` is what the handler calls; the
 * broker's handlers take the broker's services.
 */
export interface ApiHandler<A extends ApiSchema = ApiSchema, Services = BrokerServices> {
  readonly api: A;
  readonly versions: { min: number; max: number };
  /**
   * The response, or undefined when the request gets none (Produce with acks=0). Its record sets
   * may be deferred bytes (segment regions), which the connection releases once written or dropped.
   */
  handle(
    request: RequestOf<A>,
    context: RequestContext,
    services: Services,
  ): Promise<ResponseInputOf<A> | undefined>;
}

/** Declares a handler with its types tied to its API schema. */
export function defineHandler<A extends ApiSchema, Services = BrokerServices>(
  handler: ApiHandler<A, Services>,
): ApiHandler<A, Services> {
  return handler;
}
