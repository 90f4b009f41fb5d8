import { OffsetCommit } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.OffsetCommit;

/**
 * OffsetCommit v0–9: a member's commit (checked against its generation, or for a consumer-protocol
 * member against its member epoch, which needs v9+) or a simple commit
 * (generation -1, no member id, and always so in v0) of an empty group. v1's commit timestamp is
 * not kept: the commit's time is when the coordinator stores it, as for every other version. Acknowledged once the offsets are durable.
 * Needs READ on the group (else every partition gets GROUP_AUTHORIZATION_FAILED) and on each
 * topic (else its partitions get TOPIC_AUTHORIZATION_FAILED); denied offsets are not committed.
 */
export const offsetCommitHandler = defineHandler({
  api: OffsetCommit,
  versions: { min: 0, max: 9 },
  async handle(request, context, services) {
    const { access } = context;
    const refusedGroup = access.allows(RULES.group, request.groupId) ? undefined : RULES.group.denied;
    const { allowed, denied } =
      refusedGroup === undefined
        ? access.split(RULES.topic, request.topics, (topic) => topic.name)
        : { allowed: [], denied: request.topics };
    const committed =
      allowed.length === 0
        ? []
        : await services.groups.commit({
            groupId: request.groupId,
            generationId: request.generationIdOrMemberEpoch,
            memberId: request.memberId,
            groupInstanceId: request.groupInstanceId,
            retentionTimeMs: Number(request.retentionTimeMs),
            apiVersion: context.header.apiVersion,
            topics: allowed.map((topic) => ({
              name: topic.name,
              partitions: topic.partitions.map((partition) => ({
                partitionIndex: partition.partitionIndex,
                committedOffset: Number(partition.committedOffset),
                committedLeaderEpoch: partition.committedLeaderEpoch,
                committedMetadata: partition.committedMetadata,
              })),
            })),
          });
    const refusedCode = refusedGroup ?? RULES.topic.denied;
    const refused = denied.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: refusedCode,
      })),
    }));
    return { throttleTimeMs: 0, topics: [...committed, ...refused] };
  },
});
