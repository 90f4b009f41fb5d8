import { ErrorCode } from '@weir/protocol';
import type { AssignmentChangeCause } from '../metadata/assignment-change';
import type { ClusterView } from '../metadata/cluster-view';
import type { PartitionAssignment } from '../metadata/metadata-store';
import type { ElectionTarget, LeaderElections } from './leader-elections';
import { ElectionType, imbalancedBrokers } from './preferred-election';

/** The cause the timeline records for the rebalance's elections, so they read apart from an operator's. */
export const AUTO_REBALANCE_CAUSE: AssignmentChangeCause = 'auto-leader-rebalance';

/** How long one round's elections may take before the round gives up on the rest. */
const ROUND_TIMEOUT_MS = 30_000;

/**
 * The partitions one rebalance round elects: those preferred by a broker whose imbalance exceeds
 * `imbalancePercentage` ({@link imbalancedBrokers}), not led by it, whose preferred replica is live
 * and in the ISR (any other would only be refused), and that are not being reassigned (a move
 * changes the preferred replica when it completes, and its completion elects the leader it needs).
 */
export function rebalanceTargets(
  assignments: readonly PartitionAssignment[],
  isLive: (brokerId: number) => boolean,
  imbalancePercentage: number,
): ElectionTarget[] {
  const brokers = new Set(imbalancedBrokers(assignments, imbalancePercentage));
  return assignments
    .filter((assignment) => {
      const preferred = assignment.replicas[0];
      return (
        preferred !== undefined &&
        brokers.has(preferred) &&
        assignment.leader !== preferred &&
        isLive(preferred) &&
        assignment.isr.includes(preferred) &&
        (assignment.addingReplicas?.length ?? 0) === 0 &&
        (assignment.removingReplicas?.length ?? 0) === 0
      );
    })
    .map((assignment) => ({ topic: assignment.topic, partition: assignment.partition }));
}

export interface LeaderRebalancerDeps {
  view: ClusterView;
  elections: Pick<LeaderElections, 'elect'>;
  localBrokerId: number;
  /** leader.imbalance.check.interval.seconds, in milliseconds. */
  checkIntervalMs: number;
  /** leader.imbalance.per.broker.percentage. */
  imbalancePercentage: number;
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
}

/**
 * Kafka's auto leader rebalance: while this broker is controller, every check interval it runs
 * preferred elections for the partitions {@link rebalanceTargets} picks, each write fenced by the
 * controller election, so a controller that lost the title while paused moves nothing. Rounds never
 * overlap; one that finds nothing to do writes nothing.
 */
export class LeaderRebalancer {
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #stopped = false;

  constructor(private readonly deps: LeaderRebalancerDeps) {}

  start(): void {
    this.#timer = setInterval(() => void this.#round(), this.deps.checkIntervalMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }

  async #round(): Promise<void> {
    const { view, logger } = this.deps;
    if (this.#running || this.#stopped || view.controllerId !== this.deps.localBrokerId) return;
    this.#running = true;
    try {
      const assignments = view.topics().flatMap((topic) => view.assignmentsOf(topic.name));
      const targets = rebalanceTargets(assignments, (id) => view.isLive(id), this.deps.imbalancePercentage);
      if (targets.length === 0) return;
      const results = await this.deps.elections.elect(ElectionType.preferred, targets, {
        timeoutMs: ROUND_TIMEOUT_MS,
        fence: 'controller',
        cause: AUTO_REBALANCE_CAUSE,
      });
      // Elections made are logged and counted where they are stored (LeaderElections' onElected).
      for (const result of results) {
        if (result.errorCode === ErrorCode.NONE || result.errorCode === ErrorCode.ELECTION_NOT_NEEDED)
          continue;
        logger.warn(
          {
            topic: result.topic,
            partition: result.partition,
            errorCode: result.errorCode,
            reason: result.errorMessage,
          },
          'rebalance election not made',
        );
      }
    } catch (error) {
      logger.warn({ err: error }, 'leader rebalance round failed');
    } finally {
      this.#running = false;
    }
  }
}
