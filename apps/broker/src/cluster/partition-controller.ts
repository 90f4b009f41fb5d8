import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore, PartitionAssignment } from '../metadata/metadata-store';

export interface PartitionControllerDeps {
  view: ClusterView;
  store: Pick<MetadataStore, 'compareAndSetAssignment'>;
  localBrokerId: number;
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  /** Leader changes written at once; the rest wait their turn. */
  maxConcurrentWrites?: number;
}

/**
 * What the controller decides for one partition (docs/architecture.md §6.4), or undefined when it
 * is fine as it is. A leader whose broker is not live leaves: the partition goes offline (leader -1)
 * with a new epoch. An offline partition gets the first live in-sync replica as leader, with a new
 * epoch, so requests made under the old leadership are fenced. Nothing else moves on its own.
 */
export function leaderDecision(
  assignment: PartitionAssignment,
  isLive: (brokerId: number) => boolean,
): PartitionAssignment | undefined {
  const { leader, leaderEpoch } = assignment;
  if (leader !== -1 && isLive(leader)) return undefined;
  const candidate = assignment.isr.find(isLive);
  if (leader === -1 && candidate === undefined) return undefined;
  return { ...assignment, leader: candidate ?? -1, leaderEpoch: leaderEpoch + 1 };
}

/**
 * The controller's work: while this broker holds the controller election, every change of the
 * cluster view (a broker's session ending or starting, a new partition) is followed by one pass over
 * the assignments that applies {@link leaderDecision}, each write fenced by the election, so a
 * controller that lost the title while paused writes nothing.
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
    const decisions: PartitionAssignment[] = [];
    for (const topic of view.topics()) {
      for (const assignment of view.assignmentsOf(topic.name)) {
        const next =
          assignment === undefined ? undefined : leaderDecision(assignment, (id) => view.isLive(id));
        if (next !== undefined) decisions.push(next);
      }
    }
    const limit = this.deps.maxConcurrentWrites ?? 32;
    for (let start = 0; start < decisions.length && !this.#stopped; start += limit) {
      await Promise.all(
        decisions.slice(start, start + limit).map(async (next) => {
          try {
            await store.compareAndSetAssignment(next, 'controller');
            logger.info(
              {
                topic: next.topic,
                partition: next.partition,
                leader: next.leader,
                leaderEpoch: next.leaderEpoch,
              },
              next.leader === -1 ? 'partition offline: its leader is not live' : 'partition leader elected',
            );
          } catch (error) {
            // A newer version reaches the view soon, and its change starts the next pass; losing
            // the election ends the work here.
            if (error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION) return;
            if (!(error instanceof WeirError && error.code === ErrorCode.NOT_CONTROLLER)) {
              logger.warn(
                { err: error, topic: next.topic, partition: next.partition },
                'leader change not written',
              );
              setTimeout(() => this.#schedule(), 1000).unref();
            }
          }
        }),
      );
    }
  }
}
