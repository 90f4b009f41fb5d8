import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore } from '../metadata/metadata-store';
import { shutdownStep } from './controlled-shutdown';

export interface FailedLogHandoverDeps {
  localBrokerId: number;
  view: Pick<ClusterView, 'assignment' | 'isLive'>;
  store: Pick<MetadataStore, 'compareAndSetAssignment'>;
  minInsyncReplicasOf(topic: string): number;
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  delay(ms: number): Promise<void>;
}

/** A lost race is retried this often (the view catches up in between), then given up. */
const ATTEMPTS = 5;
const RETRY_MS = 200;

/**
 * A partition whose log failed here (a storage error on its disk: the log is offline, and only
 * `weir log repair` brings it back) gives up its place as a controlled shutdown would, for that
 * partition alone (docs/architecture.md §6.5): as the leader it hands leadership to another live
 * in-sync replica at the next epoch, and either way it leaves the ISR, so the partition stays
 * available on the other replicas while the rest of this broker keeps serving. Each change is a
 * compare-and-swap on the partition's version; a lost race is decided again on the newer
 * assignment. With no other live in-sync replica the partition stays as it is (logged).
 */
export async function handOverFailedLog(
  deps: FailedLogHandoverDeps,
  topic: string,
  partition: number,
): Promise<void> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const assignment = deps.view.assignment(topic, partition);
    if (assignment === undefined) return;
    const step = shutdownStep(
      assignment,
      deps.localBrokerId,
      (id) => deps.view.isLive(id),
      deps.minInsyncReplicasOf(topic),
    );
    if (step === undefined) return;
    if (step.kind === 'stay') {
      deps.logger.warn({ topic, partition, reason: step.reason }, 'a failed log keeps its partition here');
      return;
    }
    try {
      await deps.store.compareAndSetAssignment(step.next, undefined, 'log-offline');
      deps.logger.info(
        {
          topic,
          partition,
          leader: step.next.leader,
          leaderEpoch: step.next.leaderEpoch,
          isr: step.next.isr,
        },
        step.kind === 'move-leader'
          ? 'leadership handed over: this replica of the partition failed'
          : 'left the ISR: this replica of the partition failed',
      );
      return;
    } catch (error) {
      if (!(error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION)) {
        deps.logger.warn({ topic, partition, err: error }, 'handing over a failed partition failed');
      }
      await deps.delay(RETRY_MS);
    }
  }
}
