import { AlterPartitionReassignments, ErrorCode, WeirError } from '@weir/protocol';
import { resultOf } from '../../errors/item-result';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../answers/top-level-error';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.AlterPartitionReassignments;

/**
 * AlterPartitionReassignments v0 (KIP-455; flexible only, so internal listener only): for each
 * named partition, starts or replaces a move to the given replicas, or cancels the move in
 * progress when they are null. Answers once each change is stored (the move itself runs on: the
 * controller completes it when the new replicas are in sync). Needs ALTER on the cluster; a
 * partition named twice is refused for each occurrence (INVALID_REQUEST).
 */
export const alterPartitionReassignmentsHandler = defineHandler({
  api: AlterPartitionReassignments,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster))
      return { throttleTimeMs: 0, ...deniedError(RULES.cluster), responses: [] };
    const deadlineMs = Date.now() + Math.max(0, request.timeoutMs);
    const seen = new Map<string, number>();
    for (const topic of request.topics) {
      for (const partition of topic.partitions) {
        const key = `${topic.name}\u0000${partition.partitionIndex}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }
    const responses = await Promise.all(
      request.topics.map(async (topic) => ({
        name: topic.name,
        partitions: await Promise.all(
          topic.partitions.map(async (partition) => {
            const result = await resultOf(async () => {
              if ((seen.get(`${topic.name}\u0000${partition.partitionIndex}`) ?? 0) > 1) {
                throw new WeirError(ErrorCode.INVALID_REQUEST, {
                  detail: `${topic.name}-${partition.partitionIndex} is listed more than once in the request`,
                });
              }
              await services.reassignments.alter(
                topic.name,
                partition.partitionIndex,
                partition.replicas,
                deadlineMs,
              );
            });
            return {
              partitionIndex: partition.partitionIndex,
              ...(result.ok ? NO_ERROR : context.errorOf(result)),
            };
          }),
        ),
      })),
    );
    return { throttleTimeMs: 0, ...NO_ERROR, responses };
  },
});
