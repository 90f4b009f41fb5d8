import { ConsumerGroupHeartbeat } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ConsumerGroupHeartbeat;

/**
 * ConsumerGroupHeartbeat v0 (KIP-848): a consumer-protocol member joins (epoch 0), heartbeats with
 * its epoch and owned partitions, or leaves (-1, or -2 for a static member coming back); the answer
 * carries its member id, epoch, heartbeat interval and, when it changed or the request was a full
 * one, its assignment. Needs READ on the group, as Kafka 3.9 asks. Flexible only; kafkajs and
 * librdkafka 2.0 never send it (docs/kafka-compat.md §3).
 */
export const consumerGroupHeartbeatHandler = defineHandler({
  api: ConsumerGroupHeartbeat,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.group, request.groupId)) {
      return {
        throttleTimeMs: 0,
        errorCode: RULES.group.denied,
        errorMessage: null,
        memberId: null,
        memberEpoch: 0,
        heartbeatIntervalMs: 0,
        assignment: null,
      };
    }
    const outcome = await services.groups.consumerGroupHeartbeat({
      groupId: request.groupId,
      memberId: request.memberId,
      memberEpoch: request.memberEpoch,
      instanceId: request.instanceId,
      rackId: request.rackId,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      subscribedTopicNames: request.subscribedTopicNames,
      serverAssignor: request.serverAssignor,
      topicPartitions: request.topicPartitions,
      clientId: context.header.clientId ?? '',
      // Kafka's form of the address (InetAddress.toString), as DescribeGroups shows it too.
      clientHost: `/${context.clientHost}`,
    });
    return { throttleTimeMs: 0, ...outcome };
  },
});
