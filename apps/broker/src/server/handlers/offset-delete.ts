import { OffsetDelete } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.OffsetDelete;

/**
 * OffsetDelete v0: drops a group's offsets for topics it no longer consumes. Needs DELETE on the
 * group (else GROUP_AUTHORIZATION_FAILED, nothing dropped) and READ on each topic (else its
 * partitions get TOPIC_AUTHORIZATION_FAILED and keep their offsets).
 */
export const offsetDeleteHandler = defineHandler({
  api: OffsetDelete,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { access } = context;
    if (!access.allows(RULES.group, request.groupId)) {
      return { errorCode: RULES.group.denied, throttleTimeMs: 0, topics: [] };
    }
    const { allowed, denied } = access.split(RULES.topic, request.topics, (topic) => topic.name);
    const result =
      allowed.length === 0 && denied.length > 0
        ? { errorCode: 0, topics: [] }
        : await services.groups.deleteOffsets(
            request.groupId,
            allowed.map((topic) => ({
              name: topic.name,
              partitions: topic.partitions.map((partition) => partition.partitionIndex),
            })),
          );
    const refused = denied.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: RULES.topic.denied,
      })),
    }));
    return { errorCode: result.errorCode, throttleTimeMs: 0, topics: [...result.topics, ...refused] };
  },
});
