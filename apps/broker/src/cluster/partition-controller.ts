import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore, PartitionAssignment } from '../metadata/metadata-store';
import { type ElectionPolicy, type LeaderDecision, leaderDecision } from './leader-election';
import { reassignmentCompletion } from './reassignment';

export interface PartitionControllerDeps {
  view: ClusterView;
  store: Pick<MetadataStore, 'compareAndSetAssignment'>;
  localBrokerId: number;
  /** A topic's min.insync.replicas and unclean.leader.election.enable, as configured now. */
  policyOf(topic: string): ElectionPolicy;
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  /** Leader changes written at once; the rest wait their turn. */
  maxConcurrentWrites?: number;
  /** Counts each stored change: elections by reason, and members dropped from the ISR. */
  onStored?: (previous: PartitionAssignment, decision: LeaderDecision) => void;
  /** Told of each move the controller completed (its replicas are the target now). */
  onReassignmentCompleted?: (next: PartitionAssignment) => void;
}

/** How soon a pass whose write found the election's fence not yet armed runs again. */
const NOT_CONTROLLER_RETRY_MS = 100;

/**
 * The controller's work: while this broker holds the controller election, every change of the
 * cluster view (a broker's session ending or starting, a new partition) is followed by one pass over
 * the assignments that applies {@link leaderDecision}, each write fenced by the election, so a
 * controller that lost the title while paused writes nothing. A partition being moved that needs no
 * election is completed once its new replicas are in sync ({@link reassignmentCompletion}); the ISR
 * expansion that makes it so is itself a change of the view, so it starts the pass that completes.
 */
export class PartitionController {
  #stopFollowing: (() => void) | undefined;
  #running = false;
  #again = false;
  #stopped = false;

  constructor(private readonly deps: PartitionControllerDeps) {}

  start(): void {
    this.#stopFollowing = this.deps.view.onChange(() => this.#schedule());
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    this.#stopFollowing?.();
  }

  #schedule(): void {
    if (this.#stopped || this.deps.view.controllerId !== this.deps.localBrokerId) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    // One pass covers every change that arrived in the same turn of the event loop.
    setImmediate(() => void this.#run());
  }

  async #run(): Promise<void> {
    try {
      do {
        this.#again = false;
        await this.#pass();
      } while (this.#again && !this.#stopped);
    } finally {
      this.#running = false;
    }
  }

  async #pass(): Promise<void> {
    const { view, store, logger } = this.deps;
    if (view.controllerId !== this.deps.localBrokerId) return;
    const decisions: { previous: PartitionAssignment; decision: LeaderDecision }[] = [];
    const completions: PartitionAssignment[] = [];
    for (const topic of view.topics()) {
      const policy = this.deps.policyOf(topic.name);
      for (const assignment of view.assignmentsOf(topic.name)) {
        const decision =
          assignment === undefined
            ? undefined
            : leaderDecision(
                assignment,
                (id) => view.isLive(id),
                policy,
                (id) => view.broker(id)?.storageId,
              );
        if (assignment !== undefined && decision !== undefined)
          decisions.push({ previous: assignment, decision });
        else if (assignment !== undefined) {
          const completed = reassignmentCompletion(assignment, (id) => view.isLive(id));
          if (completed !== undefined) completions.push(completed);
        }
      }
    }
    const limit = this.deps.maxConcurrentWrites ?? 32;
    for (let start = 0; start < decisions.length && !this.#stopped; start += limit) {
      await Promise.all(
        decisions.slice(start, start + limit).map(async ({ previous, decision }) => {
          const { next, reason } = decision;
          try {
            await store.compareAndSetAssignment(next, 'controller', reason);
            this.deps.onStored?.(previous, decision);
            const fields = {
              topic: next.topic,
              partition: next.partition,
              leader: next.leader,
              leaderEpoch: next.leaderEpoch,
              isr: next.isr,
              elr: next.elr ?? [],
              reason,
            };
            if (reason === 'unclean')
              logger.warn(fields, 'unclean leader election: acknowledged records may be lost');
            else if (next.leader === -1)
              logger.warn(fields, 'partition offline: no in-sync or eligible replica is live');
            else if (reason === 'member-not-live') logger.info(fields, 'ISR shrunk: a member is not live');
            else logger.info(fields, 'partition leader elected');
          } catch (error) {
            this.#writeFailed(error, next, 'leader change not written');
          }
        }),
      );
    }
    for (let start = 0; start < completions.length && !this.#stopped; start += limit) {
      await Promise.all(
        completions.slice(start, start + limit).map(async (next) => {
          try {
            await store.compareAndSetAssignment(next, 'controller', 'reassignment');
            this.deps.onReassignmentCompleted?.(next);
            logger.info(
              {
                topic: next.topic,
                partition: next.partition,
                replicas: next.replicas,
                leader: next.leader,
                leaderEpoch: next.leaderEpoch,
                isr: next.isr,
              },
              'reassignment completed',
            );
          } catch (error) {
            this.#writeFailed(error, next, 'reassignment completion not written');
          }
        }),
      );
    }
  }

  #writeFailed(error: unknown, next: PartitionAssignment, message: string): void {
    // A newer version reaches the view soon, and its change starts the next pass; losing the
    // election ends the work here.
    if (error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION) return;
    if (error instanceof WeirError && error.code === ErrorCode.NOT_CONTROLLER) {
      // The watch can show this broker's election before the election's own answer has armed its
      // write fence (the two race), and no later change may come to start another pass: while the
      // view still names this broker, try again shortly.
      if (this.deps.view.controllerId === this.deps.localBrokerId) {
        setTimeout(() => this.#schedule(), NOT_CONTROLLER_RETRY_MS).unref();
      }
      return;
    }
    this.deps.logger.warn({ err: error, topic: next.topic, partition: next.partition }, message);
    setTimeout(() => this.#schedule(), 1000).unref();
  }
}
