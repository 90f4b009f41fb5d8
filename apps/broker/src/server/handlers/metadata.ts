import { CLUSTER_RESOURCE_NAME, ErrorCode, Metadata, ZERO_UUID } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import type { TopicDescription } from '../../topics/topic-descriptions';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.Metadata;

/** What a request answers for one topic: a description, whose name is null for a topic asked by id that is unknown or not to be shown. */
type AnsweredTopic = Omit<TopicDescription, 'name'> & { name: string | null };

function unnamedTopic(errorCode: number): AnsweredTopic {
  return { name: null, topicId: null, errorCode, isInternal: false, partitions: [], configs: {} };
}

/** Kafka's "not requested" value for authorized operations (Metadata v8). */
const OPERATIONS_NOT_REQUESTED = -2_147_483_648;

/** The operations Kafka reports for a topic and for the cluster in Metadata v8. */
const TOPIC_OPERATIONS = [
  'READ',
  'WRITE',
  'CREATE',
  'DELETE',
  'ALTER',
  'DESCRIBE',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
] as const;
const CLUSTER_OPERATIONS = [
  'CREATE',
  'CLUSTER_ACTION',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
  'IDEMPOTENT_WRITE',
  'ALTER',
  'DESCRIBE',
] as const;

/**
 * Metadata v0–12: brokers, the controller, and topics with their partitions, each with its leader
 * epoch (v7+, which clients send back as `current_leader_epoch`). A null topic list (in v0, which
 * cannot send null, an empty one: Sarama's ClusterAdmin and kafka-python's probe ask so) means all
 * topics (and never auto-creates); auto-creation also needs the request's consent, which versions
 * before 4 give implicitly. An all-topics answer leaves out the topics the principal may not
 * describe; a named one it may not describe is TOPIC_AUTHORIZATION_FAILED, and so is one it would
 * auto-create without CREATE (Kafka's rule; the name does not leak existence). v8 reports the
 * principal's authorized operations on each topic and on the cluster when asked (the cluster's up
 * to v10). v9+ are flexible; v10+ carry each topic's id, which consumer-protocol (KIP-848)
 * assignments name topics by, and v12 requests may name topics by id alone. kafkajs (max 6) and
 * librdkafka 2.0.2 (max 4) never reach them (docs/kafka-compat.md §3).
 *
 * A broker that lost its cluster session (docs/architecture.md §6.4) leaves itself out of the
 * answer: not among the brokers, not the controller, and LEADER_NOT_AVAILABLE for the partitions
 * its view says it leads. Cut off from etcd, its view is stale and names it leader; a client that
 * asks only the broker it is connected to (kafkajs) would be sent back to it for as long as the cut
 * lasts, while this answer sends it to the other brokers, whose views are current.
 */
export const metadataHandler = defineHandler({
  api: Metadata,
  versions: { min: 0, max: 12 },
  async handle(request, context, services) {
    // A broker without its cluster session leaves itself out (see fencedSelf below).
    const fencedSelf = services.replicas.sessionFenced ? services.replicas.localBrokerId : undefined;
    const { access } = context;
    const cluster = services.cluster;
    const allowAutoCreate = context.header.apiVersion < 4 || request.allowAutoTopicCreation;
    let topics: AnsweredTopic[];
    const allTopics =
      request.topics === null || (context.header.apiVersion === 0 && request.topics.length === 0);
    if (allTopics || request.topics === null) {
      topics = (await services.topicDescriptions.describeTopics(null, false)).filter((topic) =>
        access.allows(RULES.describe, topic.name),
      );
    } else {
      // v10+ may name a topic by id alone (a null name); it is answered by id, its name only
      // where the principal may describe it, so a denied id does not leak the name.
      const requested = request.topics.map((topic) =>
        topic.name !== null
          ? { name: topic.name, byId: null }
          : { name: services.topicDescriptions.nameOfTopicId(topic.topicId) ?? null, byId: topic.topicId },
      );
      const names = requested.flatMap((topic) => (topic.name === null ? [] : [topic.name]));
      const { allowed } = access.split(RULES.describe, names, (name) => name);
      const described = await services.topicDescriptions.describeTopics(allowed, allowAutoCreate, (name) =>
        access.allows(RULES.autoCreate, name),
      );
      const byName = new Map(described.map((topic) => [topic.name, topic]));
      topics = requested.map(({ name, byId }) => {
        const found = name === null ? undefined : byName.get(name);
        if (found) return found;
        if (byId !== null) {
          const errorCode = name === null ? ErrorCode.UNKNOWN_TOPIC_ID : RULES.describe.denied;
          return { ...unnamedTopic(errorCode), topicId: byId };
        }
        return { ...unnamedTopic(RULES.describe.denied), name };
      });
    }
    return {
      throttleTimeMs: 0,
      // Every live broker, as reached on the listener this request came in on (Kafka's rule).
      brokers: cluster.brokers().flatMap((broker) => {
        if (broker.brokerId === fencedSelf) return [];
        const endpoint = cluster.endpoint(broker.brokerId, context.listenerName);
        return endpoint === undefined ? [] : [{ ...endpoint }];
      }),
      clusterId: cluster.clusterId,
      controllerId: cluster.controllerId === fencedSelf ? -1 : cluster.controllerId,
      topics: topics.map((topic) => ({
        errorCode: topic.errorCode,
        name: topic.name,
        topicId: topic.topicId ?? ZERO_UUID,
        isInternal: topic.isInternal,
        partitions: topic.partitions.map((partition) => ({
          ...(partition.leaderId === fencedSelf && fencedSelf !== undefined
            ? { errorCode: ErrorCode.LEADER_NOT_AVAILABLE, leaderId: -1 }
            : { errorCode: partition.errorCode, leaderId: partition.leaderId }),
          partitionIndex: partition.partition,
          // On the wire from v7; librdkafka ≥ 2.1 then validates with OffsetForLeaderEpoch
          // (docs/kafka-compat.md §6.5).
          leaderEpoch: partition.leaderEpoch,
          replicaNodes: partition.replicaNodes,
          isrNodes: partition.isrNodes,
          offlineReplicas: partition.offlineReplicas,
        })),
        topicAuthorizedOperations:
          request.includeTopicAuthorizedOperations && topic.name !== null
            ? access.authorizedOperations('TOPIC', topic.name, TOPIC_OPERATIONS)
            : OPERATIONS_NOT_REQUESTED,
      })),
      clusterAuthorizedOperations: request.includeClusterAuthorizedOperations
        ? access.authorizedOperations('CLUSTER', CLUSTER_RESOURCE_NAME, CLUSTER_OPERATIONS)
        : OPERATIONS_NOT_REQUESTED,
    };
  },
});
