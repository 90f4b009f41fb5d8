import { ErrorCode, WeirListClusterEvents } from '@weir/protocol';
import type { ClusterEventQuery } from '../../../metadata/cluster-events';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirListClusterEvents;

/** The most events one call returns, so an answer stays far below the request size limits. */
export const MAX_CLUSTER_EVENTS_PER_CALL = 5000;

/**
 * WeirListClusterEvents v0: the replication timeline, newest first, read from the metadata store
 * (etcd in cluster mode). Needs DESCRIBE on the cluster. A limit outside 1..5000 is refused with
 * INVALID_REQUEST naming the field.
 */
export const weirListClusterEventsHandler = defineHandler({
  api: WeirListClusterEvents,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return { ...deniedError(RULES.cluster), events: [] };
    if (request.limit < 1 || request.limit > MAX_CLUSTER_EVENTS_PER_CALL) {
      return {
        errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: `limit must be 1..${MAX_CLUSTER_EVENTS_PER_CALL}, got ${request.limit}`,
        events: [],
      };
    }
    const query: ClusterEventQuery = {
      limit: request.limit,
      ...(request.sinceMs < 0n ? {} : { sinceMs: Number(request.sinceMs) }),
      ...(request.untilMs < 0n ? {} : { untilMs: Number(request.untilMs) }),
      ...(request.topic === null ? {} : { topic: request.topic }),
      ...(request.partition < 0 ? {} : { partition: request.partition }),
      ...(request.brokerId < 0 ? {} : { brokerId: request.brokerId }),
    };
    const events = await services.clusterEvents.listClusterEvents(query);
    return {
      ...NO_ERROR,
      events: events.map((event) => ({
        id: event.id,
        atMs: BigInt(event.atMs),
        kind: event.kind,
        topic: event.topic ?? null,
        partition: event.partition ?? -1,
        brokerId: event.brokerId ?? -1,
        leader: event.leader ?? -1,
        previousLeader: event.previousLeader ?? -1,
        leaderEpoch: event.leaderEpoch ?? -1,
        isr: event.isr === undefined ? null : [...event.isr],
        previousIsr: event.previousIsr === undefined ? null : [...event.previousIsr],
        cause: event.cause ?? null,
        sessionId: event.sessionId ?? null,
        detail: event.detail ?? null,
      })),
    };
  },
});
