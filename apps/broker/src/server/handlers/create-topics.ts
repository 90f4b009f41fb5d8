import { CreateTopics, ErrorCode, type RequestOf, WeirError } from '@weir/protocol';
import { resultOf } from '../../errors/item-result';
import { answerAllowed, denial } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import type { CreateTopicSpec } from '../../topics/topic-manager';
import { namesGivenTwice } from '../answers/names-given-twice';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.CreateTopics;

type WireTopic = RequestOf<typeof CreateTopics>['topics'][number];

/**
 * CreateTopics v0–4: per-topic results; validate_only checks everything and changes nothing. A
 * count or replication factor of -1 (v4+) is the broker's default; replica assignments replace
 * both, which must then be -1. The topics are created concurrently, so the metadata store writes
 * them in one go; a name given twice is refused for each occurrence (INVALID_REQUEST), as Kafka
 * does. A topic needs CREATE on the cluster or on itself; without, TOPIC_AUTHORIZATION_FAILED.
 */
export const createTopicsHandler = defineHandler({
  api: CreateTopics,
  versions: { min: 0, max: 4 },
  async handle(request, context, services) {
    const duplicated = namesGivenTwice(request.topics.map((topic) => topic.name));
    const results = await answerAllowed(
      request.topics,
      (topic) => context.access.allows(RULES.create, topic.name),
      (allowed) =>
        Promise.all(
          allowed.map((topic) =>
            resultOf(async () => {
              if (duplicated.has(topic.name)) {
                throw new WeirError(ErrorCode.INVALID_REQUEST, {
                  detail: `topic "${topic.name}" is listed more than once in the request`,
                });
              }
              const spec = createTopicSpecOf(topic);
              if (request.validateOnly) services.topics.validateCreate(spec);
              else await services.topics.createTopic(spec);
            }),
          ),
        ),
      () => denial(RULES.create),
    );
    return {
      throttleTimeMs: 0,
      topics: results.map((result, index) => ({
        name: request.topics[index]!.name,
        ...(result.ok ? { errorCode: 0, errorMessage: null } : context.errorOf(result)),
      })),
    };
  },
});

function createTopicSpecOf(topic: WireTopic): CreateTopicSpec {
  const configs = Object.fromEntries(topic.configs.map((config) => [config.name, config.value]));
  if (topic.assignments.length === 0) {
    return {
      name: topic.name,
      partitionCount: topic.numPartitions,
      configs,
      placement: { kind: 'factor', replicationFactor: topic.replicationFactor },
    };
  }
  if (topic.replicationFactor !== -1) {
    throw new WeirError(ErrorCode.INVALID_REQUEST, {
      detail: 'with replica assignments, the partition count and replication factor must be -1',
    });
  }
  const byPartition = [...topic.assignments].sort(
    (left, right) => left.partitionIndex - right.partitionIndex,
  );
  byPartition.forEach((assignment, index) => {
    if (assignment.partitionIndex !== index) {
      throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
        detail: `replica assignments must number the partitions 0..${byPartition.length - 1}`,
      });
    }
  });
  return {
    name: topic.name,
    partitionCount: topic.numPartitions,
    configs,
    placement: { kind: 'explicit', replicas: byPartition.map((assignment) => assignment.brokerIds) },
  };
}
