import { ListPartitionReassignments } from '@weir/protocol';
import type { PartitionAssignment } from '../../metadata/metadata-store';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../answers/top-level-error';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ListPartitionReassignments;

/**
 * ListPartitionReassignments v0 (KIP-455; flexible only, so internal listener only): the moves in
 * progress, read from this broker's cluster view, for every partition (null topics) or the named
 * ones. Named partitions that do not exist or are not moving are left out, as Kafka's controller
 * does. Needs DESCRIBE on the cluster.
 */
export const listPartitionReassignmentsHandler = defineHandler({
  api: ListPartitionReassignments,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster))
      return { throttleTimeMs: 0, ...deniedError(RULES.cluster), topics: [] };
    const cluster = services.cluster;
    const wanted =
      request.topics === null
        ? cluster
            .topics()
            .map((topic) => ({ name: topic.name, partitions: cluster.assignmentsOf(topic.name) }))
        : request.topics.map((topic) => ({
            name: topic.name,
            partitions: topic.partitionIndexes.flatMap(
              (index) => cluster.assignment(topic.name, index) ?? [],
            ),
          }));
    const topics = wanted
      .map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.filter(isMoving).map(reassignmentRow),
      }))
      .filter((topic) => topic.partitions.length > 0);
    return { throttleTimeMs: 0, ...NO_ERROR, topics };
  },
});

function isMoving(assignment: PartitionAssignment): boolean {
  return (assignment.addingReplicas?.length ?? 0) > 0 || (assignment.removingReplicas?.length ?? 0) > 0;
}

function reassignmentRow(assignment: PartitionAssignment) {
  return {
    partitionIndex: assignment.partition,
    replicas: [...assignment.replicas],
    addingReplicas: [...(assignment.addingReplicas ?? [])],
    removingReplicas: [...(assignment.removingReplicas ?? [])],
  };
}
