import { ErrorCode, WeirDescribeLogCleaner, WeirError } from '@weir/protocol';
import type { NextCleanDue } from '../../../log/compaction/next-clean-due';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirDescribeLogCleaner;

/** The wire's pair for when the next clean is due: its kind, and its time or -1. */
function nextCleanOnWire(due: NextCleanDue): { nextCleanDue: string; nextCleanDueAtMs: bigint } {
  const atMs = due.kind === 'retry' ? due.atMs : due.kind === 'dirty-ratio' ? due.latestAtMs : undefined;
  return { nextCleanDue: due.kind, nextCleanDueAtMs: BigInt(Math.round(atMs ?? -1)) };
}

/**
 * WeirDescribeLogCleaner v0: the log cleaner's state of this broker's compacted replicas, read
 * from the cleaner's memory. Needs DESCRIBE on each topic, as WeirDescribePartitions: every topic
 * means those the principal may describe; a named topic it may not describe, or that does not
 * exist, is the top-level TOPIC_AUTHORIZATION_FAILED or UNKNOWN_TOPIC_OR_PARTITION.
 */
export const weirDescribeLogCleanerHandler = defineHandler({
  api: WeirDescribeLogCleaner,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const brokerId = services.replicas.localBrokerId;
    const named = request.topics === null ? null : new Set(request.topics);
    if (named !== null) {
      for (const topic of named) {
        if (!context.access.allows(RULES.topic, topic)) {
          return { ...deniedError(RULES.topic), brokerId, partitions: [] };
        }
        if (services.cluster.topic(topic) === undefined) {
          const missing = new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
            detail: `topic "${topic}" does not exist`,
          });
          return { ...context.failure(missing), brokerId, partitions: [] };
        }
      }
    }
    const partitions = services.replicas
      .cleanerStates()
      .filter(({ topic }) => (named === null ? context.access.allows(RULES.topic, topic) : named.has(topic)))
      .sort((left, right) =>
        left.topic === right.topic ? left.partition - right.partition : left.topic < right.topic ? -1 : 1,
      )
      .map((state) => ({
        topic: state.topic,
        partition: state.partition,
        leader: services.replicas.localReplica(state.topic, state.partition)?.role === 'leader',
        cleanedUpToOffset: BigInt(state.cleanedUpToOffset ?? -1),
        dirtyRatio: state.dirtyRatio,
        minCleanableDirtyRatio: state.minCleanableDirtyRatio,
        lastCleanedAtMs: BigInt(state.lastCleanedAtMs ?? -1),
        lastOutcome: state.lastOutcome ?? 'not-due',
        lastError: state.lastError ?? null,
        lastCleanRemovedBytes: BigInt(state.lastCleanRemovedBytes ?? -1),
        removedBytesTotal: BigInt(state.removedBytesTotal),
        ...nextCleanOnWire(state.nextCleanDue),
      }));
    return { ...NO_ERROR, brokerId, partitions };
  },
});
