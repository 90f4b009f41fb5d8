import { OffsetFetch } from '@weir/protocol';
import type { FetchedOffsets } from '../../group/group-offsets';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.OffsetFetch;

/**
 * OffsetFetch v0–5: committed offsets, -1 with empty metadata where nothing is committed; a null
 * topic list (v2+) means every partition the group has committed. v1 has no top-level error, so
 * group-level errors are also on every partition. Needs DESCRIBE on the group (else
 * GROUP_AUTHORIZATION_FAILED) and on each topic: a named one gets TOPIC_AUTHORIZATION_FAILED, and
 * an all-topics answer leaves it out.
 */
export const offsetFetchHandler = defineHandler({
  api: OffsetFetch,
  versions: { min: 0, max: 5 },
  async handle(request, context, services) {
    const { access } = context;
    const refusedGroup = !access.allows(RULES.group, request.groupId);
    const named = request.topics ?? [];
    const { allowed, denied } = refusedGroup
      ? { allowed: [], denied: named }
      : access.split(RULES.topic, named, (topic) => topic.name);
    let result: FetchedOffsets;
    if (refusedGroup) result = { errorCode: RULES.group.denied, topics: [] };
    else if (request.topics === null) {
      const all = services.groups.fetchOffsets(request.groupId, null);
      result = { ...all, topics: all.topics.filter((topic) => access.allows(RULES.topic, topic.name)) };
    } else {
      result =
        allowed.length === 0 && denied.length > 0
          ? { errorCode: 0, topics: [] }
          : services.groups.fetchOffsets(request.groupId, allowed);
    }
    const refusedCode = refusedGroup ? RULES.group.denied : RULES.topic.denied;
    const topics = [
      ...result.topics,
      ...denied.map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => ({
          partitionIndex,
          committedOffset: -1,
          committedLeaderEpoch: -1,
          metadata: '',
          errorCode: refusedCode,
        })),
      })),
    ];
    return {
      throttleTimeMs: 0,
      errorCode: result.errorCode,
      topics: topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => ({
          partitionIndex: partition.partitionIndex,
          committedOffset: BigInt(partition.committedOffset),
          committedLeaderEpoch: partition.committedLeaderEpoch,
          metadata: partition.metadata,
          errorCode: partition.errorCode,
        })),
      })),
    };
  },
});
