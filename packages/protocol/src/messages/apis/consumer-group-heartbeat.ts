import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string, uuid } from '../../schema/types';

/** Topic-partitions by topic id, the form KIP-848 assignments travel in. */
const topicPartitions = struct({
  topicId: field(uuid),
  partitions: field(array(int32)),
});

/**
 * ConsumerGroupHeartbeat (key 68), version 0: the member side of the consumer group protocol
 * (KIP-848). A member joins with epoch 0, heartbeats with the epoch it was given, and leaves with
 * -1 (-2 for a static member that will come back). The optional fields are null when unchanged
 * since the last heartbeat. Kafka defines this API only in flexible versions; v1 (Kafka 4.0) adds
 * a subscription regex and client-generated member ids and is not defined here
 * (docs/kafka-compat.md §3).
 */
export const ConsumerGroupHeartbeat = defineApi({
  apiKey: 68,
  name: 'ConsumerGroupHeartbeat',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    groupId: field(string),
    memberId: field(string),
    memberEpoch: field(int32),
    instanceId: field(string, { nullable: '0+', default: null }),
    rackId: field(string, { nullable: '0+', default: null }),
    rebalanceTimeoutMs: field(int32, { default: -1 }),
    subscribedTopicNames: field(array(string), { nullable: '0+', default: null }),
    serverAssignor: field(string, { nullable: '0+', default: null }),
    topicPartitions: field(array(topicPartitions), { nullable: '0+', default: null }),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    memberId: field(string, { nullable: '0+', default: null }),
    memberEpoch: field(int32),
    heartbeatIntervalMs: field(int32),
    assignment: field(struct({ topicPartitions: field(array(topicPartitions)) }), {
      nullable: '0+',
      default: null,
    }),
  },
});
