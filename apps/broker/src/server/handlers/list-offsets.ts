import { ListOffsets } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ListOffsets;

/**
 * ListOffsets v1–3: earliest (-2), latest (-1) or the first offset at or after a timestamp. From
 * v2 the isolation level counts: read_committed's latest is the last stable offset. Topics the
 * principal may not describe get TOPIC_AUTHORIZATION_FAILED.
 */
export const listOffsetsHandler = defineHandler({
  api: ListOffsets,
  versions: { min: 1, max: 3 },
  async handle(request, context, commands) {
    const topics = [];
    for (const topic of request.topics) {
      const partitions = [];
      const allowed = context.access.allows(RULES.topic, topic.name);
      for (const partition of topic.partitions) {
        if (!allowed) {
          partitions.push({
            partitionIndex: partition.partitionIndex,
            errorCode: RULES.topic.denied,
            timestamp: -1n,
            offset: -1n,
          });
          continue;
        }
        const result = await commands.data.listOffset({
          topic: topic.name,
          partition: partition.partitionIndex,
          timestampMs: Number(partition.timestamp),
          isolationLevel: request.isolationLevel === 1 ? 'read_committed' : 'read_uncommitted',
        });
        partitions.push({
          partitionIndex: partition.partitionIndex,
          errorCode: result.ok ? 0 : result.errorCode,
          timestamp: result.ok ? BigInt(result.value.timestampMs) : -1n,
          offset: result.ok ? BigInt(result.value.offset) : -1n,
        });
      }
      topics.push({ name: topic.name, partitions });
    }
    return { throttleTimeMs: 0, topics };
  },
});
