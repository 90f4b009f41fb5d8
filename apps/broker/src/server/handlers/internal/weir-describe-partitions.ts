import { WeirDescribePartitions } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirDescribePartitions;

/**
 * WeirDescribePartitions v0: every partition of one topic. An unknown topic is the top-level
 * UNKNOWN_TOPIC_OR_PARTITION; an offline partition carries its error on its own row. Needs DESCRIBE
 * on the topic.
 */
export const weirDescribePartitionsHandler = defineHandler({
  api: WeirDescribePartitions,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.topic, request.topic)) {
      return { ...deniedError(RULES.topic), partitions: [] };
    }
    try {
      const rows = services.operator.partitionInternals.describePartitions(request.topic);
      return {
        ...NO_ERROR,
        partitions: rows.map((row) => ({
          partitionIndex: row.partition,
          errorCode: row.errorCode,
          leaderId: row.leaderId,
          replicaNodes: [...row.replicas],
          isrNodes: [...row.isr],
          logStartOffset: row.logStartOffset,
          logEndOffset: row.logEndOffset,
          highWatermark: row.highWatermark,
          lastStableOffset: row.lastStableOffset,
          sizeBytes: row.sizeBytes,
          segments: row.segments.map((segment) => ({ ...segment })),
          producerCount: row.producerCount,
        })),
      };
    } catch (error) {
      return { ...context.failure(error), partitions: [] };
    }
  },
});
