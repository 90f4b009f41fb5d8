import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore, PartitionAssignment } from '../metadata/metadata-store';
import { nextViewChange } from '../metadata/view-change';
import { isrWithout } from '../replica/isr-change';

/**
 * What a broker that is shutting down does with one partition it holds (docs/architecture.md
 * §6.3): hand its leadership to another live in-sync replica, leave its ISR as a follower, or
 * stay, because no other live in-sync replica could take over what it holds.
 */
export type ShutdownStep =
  | { kind: 'move-leader'; next: PartitionAssignment }
  | { kind: 'leave-isr'; next: PartitionAssignment }
  | { kind: 'stay'; reason: string };

/**
 * The next assignment of a partition when `brokerId` shuts down, or undefined when it is not in
 * the partition's ISR (nothing to hand over). As its leader it names the first live ISR member
 * other than itself at the next leader epoch, as Kafka's controlled shutdown does; as a follower
 * only the ISR changes. Either way it leaves the ISR by the rule of `isrWithout` (KIP-966): while
 * the ISR keeps `min.insync.replicas` members the ELR empties, below it the leaver stays eligible,
 * since the high watermark stood still from then on. When no other ISR member is live it stays:
 * leaving would take the partition offline, or leave no live replica holding every acknowledged
 * record.
 */
export function shutdownStep(
  assignment: PartitionAssignment,
  brokerId: number,
  isLive: (brokerId: number) => boolean,
  minInsyncReplicas: number,
): ShutdownStep | undefined {
  if (!assignment.isr.includes(brokerId)) return undefined;
  const successors = assignment.isr.filter((id) => id !== brokerId && isLive(id));
  if (successors.length === 0) {
    return {
      kind: 'stay',
      reason:
        assignment.isr.length === 1
          ? `broker ${brokerId} is the only in-sync replica`
          : `no other in-sync replica of [${assignment.isr.join(', ')}] is live`,
    };
  }
  const { elr: _previous, ...rest } = assignment;
  const sets = isrWithout(assignment, [brokerId], minInsyncReplicas);
  const next = { ...rest, isr: sets.isr, ...(sets.elr.length === 0 ? {} : { elr: sets.elr }) };
  if (assignment.leader !== brokerId) return { kind: 'leave-isr', next };
  return {
    kind: 'move-leader',
    next: { ...next, leader: successors[0]!, leaderEpoch: assignment.leaderEpoch + 1 },
  };
}

export interface ControlledShutdownDeps {
  localBrokerId: number;
  view: Pick<ClusterView, 'assignmentsNaming' | 'isLive' | 'onChange' | 'revision'>;
  store: Pick<MetadataStore, 'compareAndSetAssignment'>;
  /**
   * The replica layer here: its fetchers stop first, so no leader adds this broker back to an ISR
   * it left; then the driver waits until the partitions here took on the changes.
   */
  replicas: { stopFollowing(): Promise<void>; whenApplied(revision: number): Promise<void> };
  /** A topic's min.insync.replicas, as configured now. */
  minInsyncReplicasOf(topic: string): number;
  /** cluster.controlledShutdownTimeoutMs: after it the broker stops with what is left where it is. */
  timeoutMs: number;
  clock: { nowMs(): number };
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
}

/** What a controlled shutdown did, for its log line and tests. */
export interface ControlledShutdownReport {
  /** Leaderships handed to another in-sync replica. */
  moved: number;
  /** ISRs this broker left as a follower. */
  left: number;
  /** Partitions it could not hand over (no other live in-sync replica). */
  stayed: number;
  /** True when the deadline passed with changes still unwritten or not yet applied here. */
  timedOut: boolean;
}

/** After a write failed for another reason than a lost race, the next pass waits this long. */
const RETRY_BACKOFF_MS = 200;

/**
 * Kafka's controlled shutdown (controlled.shutdown.enable), run by a broker on SIGTERM before
 * anything else stops, while its listeners still answer: clients that reach it for a partition it
 * gave up get NOT_LEADER_OR_FOLLOWER and follow the new leader. Each change is a compare-and-swap
 * on the partition's version, which fences the controller and the leaders' ISR changes: a pass that
 * lost a race reads the view again and decides anew. Passes repeat until nothing is left to hand
 * over or `timeoutMs` has passed; then it waits until the replica layer here applied the changes.
 */
export async function controlledShutdown(deps: ControlledShutdownDeps): Promise<ControlledShutdownReport> {
  const { view, store, logger, localBrokerId } = deps;
  const deadlineMs = deps.clock.nowMs() + deps.timeoutMs;
  const remainingMs = () => deadlineMs - deps.clock.nowMs();
  const report: ControlledShutdownReport = { moved: 0, left: 0, stayed: 0, timedOut: false };
  if (deps.timeoutMs === 0) return report;
  const stays = new Map<string, { topic: string; partition: number; reason: string }>();
  await withinDeadline(deps.replicas.stopFollowing(), remainingMs());
  for (;;) {
    stays.clear();
    const steps = [...view.assignmentsNaming(localBrokerId)]
      .map((assignment) => ({
        assignment,
        step: shutdownStep(
          assignment,
          localBrokerId,
          (id) => view.isLive(id),
          deps.minInsyncReplicasOf(assignment.topic),
        ),
      }))
      .filter((entry) => entry.step !== undefined);
    for (const { assignment, step } of steps) {
      if (step?.kind === 'stay') {
        const { topic, partition } = assignment;
        stays.set(`${topic}\u0000${partition}`, { topic, partition, reason: step.reason });
      }
    }
    const writes = steps.flatMap(({ step }) => (step === undefined || step.kind === 'stay' ? [] : [step]));
    if (writes.length === 0) break;
    if (remainingMs() <= 0) {
      report.timedOut = true;
      break;
    }
    const outcomes = await withinDeadline(
      Promise.all(writes.map((step) => writeStep(store, step))),
      remainingMs(),
    );
    if (outcomes === 'timed out') {
      report.timedOut = true;
      break;
    }
    let failed = false;
    let raced = false;
    for (const [index, outcome] of outcomes.value.entries()) {
      const step = writes[index]!;
      if (outcome === 'written') {
        if (step.kind === 'move-leader') report.moved += 1;
        else report.left += 1;
        logger.info(
          {
            topic: step.next.topic,
            partition: step.next.partition,
            leader: step.next.leader,
            leaderEpoch: step.next.leaderEpoch,
            isr: step.next.isr,
          },
          step.kind === 'move-leader'
            ? 'controlled shutdown: leadership moved'
            : 'controlled shutdown: left the ISR',
        );
      } else if (outcome === 'raced') raced = true;
      else {
        failed = true;
        logger.warn(
          { topic: step.next.topic, partition: step.next.partition, err: outcome.error },
          'controlled shutdown: writing a partition change failed; trying again',
        );
      }
    }
    // A lost race means a newer version is on its way to the view: the next pass reads it.
    if (raced) await nextViewChange(view, Math.min(RETRY_BACKOFF_MS, Math.max(0, remainingMs())));
    else if (failed) await delay(Math.min(RETRY_BACKOFF_MS, Math.max(0, remainingMs())));
  }
  // The writes resolved once the view held them; the partitions here take them on after that.
  if ((await withinDeadline(deps.replicas.whenApplied(view.revision), remainingMs())) === 'timed out')
    report.timedOut = true;
  report.stayed = stays.size;
  for (const stay of stays.values()) {
    logger.warn(stay, 'controlled shutdown: partition stays on this broker');
  }
  const summary = {
    moved: report.moved,
    left: report.left,
    stayed: report.stayed,
    timeoutMs: deps.timeoutMs,
  };
  if (report.timedOut) logger.warn(summary, 'controlled shutdown timed out; stopping anyway');
  else logger.info(summary, 'controlled shutdown complete');
  return report;
}

type WriteOutcome = 'written' | 'raced' | { error: unknown };

async function writeStep(
  store: ControlledShutdownDeps['store'],
  step: Exclude<ShutdownStep, { kind: 'stay' }>,
): Promise<WriteOutcome> {
  try {
    await store.compareAndSetAssignment(step.next, undefined, 'controlled-shutdown');
    return 'written';
  } catch (error) {
    if (error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION) return 'raced';
    return { error };
  }
}

/** `promise`'s outcome, or 'timed out' when `timeoutMs` passes first. */
async function withinDeadline<T>(
  promise: Promise<T>,
  timeoutMs: number,
): Promise<{ value: T } | 'timed out'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), Math.max(0, timeoutMs));
  });
  try {
    return await Promise.race([promise.then((value) => ({ value })), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
