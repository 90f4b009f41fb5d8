import { WeirDescribeReplication } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirDescribeReplication;

/**
 * WeirDescribeReplication v0: the partitions this broker leads, with its followers' lag from the
 * leader's record of their fetches, and when the metadata last changed each ISR and leader. Needs
 * DESCRIBE on the cluster, as the replication timeline does: both show every topic's placement.
 */
export const weirDescribeReplicationHandler = defineHandler({
  api: WeirDescribeReplication,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) return { ...deniedError(RULES.cluster), partitions: [] };
    const topics = request.topics === null ? undefined : new Set(request.topics);
    const partitions = services.replicas
      .localReplicas()
      .filter(({ topic, state }) => state.role === 'leader' && (topics === undefined || topics.has(topic)))
      .map(({ topic, partition, state }) => {
        const assignment = services.cluster.assignment(topic, partition);
        return {
          topic,
          partition,
          leaderEpoch: state.leaderEpoch,
          replicas: [...state.replicas],
          isr: [...state.isr],
          minInsyncReplicas: state.minInsyncReplicas,
          highWatermark: BigInt(state.offsets.highWatermark),
          logEndOffset: BigInt(state.offsets.logEndOffset),
          isrChangedAtMs: BigInt(assignment?.isrChangedAtMs ?? -1),
          leaderChangedAtMs: BigInt(assignment?.leaderChangedAtMs ?? -1),
          followers: state.followers.map((follower) => ({
            brokerId: follower.brokerId,
            logEndOffset: BigInt(follower.logEndOffset),
            lagRecords: BigInt(follower.lagRecords),
            lagMs: BigInt(Math.max(0, Math.round(follower.lagMs))),
          })),
        };
      });
    return { ...NO_ERROR, partitions };
  },
});
