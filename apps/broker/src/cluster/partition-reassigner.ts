import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore, PartitionAssignment } from '../metadata/metadata-store';
import { nextViewChange } from '../metadata/view-change';
import { alterReassignment, cancelReassignment, type ReassignmentOutcome } from './reassignment';

export interface PartitionReassignerDeps {
  view: Pick<ClusterView, 'assignment' | 'broker' | 'isLive' | 'onChange'>;
  store: Pick<MetadataStore, 'compareAndSetAssignment'>;
  logger: { info(fields: object, message: string): void };
  now(): number;
}

/** How long a write that lost a race waits for the winner to reach the view before reading again. */
const RACE_WAIT_MS = 200;

/**
 * Starts, replaces and cancels partition moves (AlterPartitionReassignments, KIP-455;
 * docs/architecture.md §6.6). Any broker may do this, as any broker creates topics: the change is
 * a compare-and-set of the stored assignment, so it cannot overwrite an election or ISR change it
 * did not see; a lost race reads the view again and recomputes. The controller finishes each move
 * once the new replicas are in sync (`reassignmentCompletion`).
 */
export class PartitionReassigner {
  constructor(private readonly deps: PartitionReassignerDeps) {}

  /**
   * Moves `topic-partition` to `target`, or cancels its move when `target` is null. Resolves once
   * the change is in the view; throws a WeirError with Kafka's code when refused, and
   * REQUEST_TIMED_OUT when races kept it from being written before `deadlineMs`.
   */
  async alter(
    topic: string,
    partition: number,
    target: readonly number[] | null,
    deadlineMs: number,
  ): Promise<void> {
    const { view, store, logger } = this.deps;
    for (;;) {
      const current = view.assignment(topic, partition);
      const outcome: ReassignmentOutcome =
        target === null
          ? cancelReassignment(current, (id) => view.isLive(id))
          : alterReassignment(current, target, (id) => view.broker(id) !== undefined);
      if ('rejected' in outcome) {
        throw new WeirError(outcome.rejected.errorCode, { detail: outcome.rejected.message });
      }
      if (current !== undefined && sameAssignment(current, outcome.next)) return;
      try {
        await store.compareAndSetAssignment(
          outcome.next,
          undefined,
          target === null ? 'reassignment-cancelled' : 'reassignment',
        );
        logger.info(
          {
            topic,
            partition,
            replicas: outcome.next.replicas,
            adding: outcome.next.addingReplicas ?? [],
            removing: outcome.next.removingReplicas ?? [],
          },
          target === null ? 'reassignment cancelled' : 'reassignment started',
        );
        return;
      } catch (error) {
        if (!(error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION)) throw error;
        const remainingMs = deadlineMs - this.deps.now();
        if (remainingMs <= 0) {
          throw new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
            detail: `${topic}-${partition} kept changing; the reassignment was not written in time`,
          });
        }
        await nextViewChange(view, Math.min(RACE_WAIT_MS, remainingMs));
      }
    }
  }
}

/** Whether a computed next assignment changes nothing the store keeps (so no write is needed). */
function sameAssignment(current: PartitionAssignment, next: PartitionAssignment): boolean {
  const same = (a: readonly number[] | undefined, b: readonly number[] | undefined) =>
    (a ?? []).length === (b ?? []).length && (a ?? []).every((id, index) => (b ?? [])[index] === id);
  return (
    current.leader === next.leader &&
    current.leaderEpoch === next.leaderEpoch &&
    same(current.replicas, next.replicas) &&
    same(current.isr, next.isr) &&
    same(current.addingReplicas, next.addingReplicas) &&
    same(current.removingReplicas, next.removingReplicas)
  );
}
