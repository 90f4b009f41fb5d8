import { ErrorCode, WeirError } from '@weir/protocol';
import type { AssignmentChangeCause } from '../metadata/assignment-change';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore, PartitionAssignment, WriteFence } from '../metadata/metadata-store';
import { type ElectionOutcome, ElectionType, preferredElection, uncleanElection } from './preferred-election';

/** One partition an election was asked for. */
export interface ElectionTarget {
  topic: string;
  partition: number;
}

/** What one partition's election came to: NONE with its new leader, or the code saying why not. */
export interface ElectionResult {
  topic: string;
  partition: number;
  errorCode: number;
  errorMessage: string | null;
  /** The leader after a successful election. */
  leader?: number;
}

/** Elections whose writes may be in flight together. */
const MAX_CONCURRENT_WRITES = 32;

export interface ElectionOptions {
  /** How long to wait in all for the writes and for this broker's view to show the new leaders. */
  timeoutMs: number;
  /** `controller` for the controller's own elections; operators' elections need none. */
  fence?: WriteFence;
  /** The cause the timeline records; by default the election type's ('preferred-election' or 'unclean'). */
  cause?: AssignmentChangeCause;
}

export interface LeaderElectionsDeps {
  view: ClusterView;
  store: Pick<MetadataStore, 'compareAndSetAssignment'>;
  /** Called with each stored election: the metrics count it, an unclean one is logged as a warning. */
  onElected?: (next: PartitionAssignment, cause: AssignmentChangeCause) => void;
}

/**
 * Preferred and unclean leader elections on demand (Kafka's ElectLeaders, KIP-460), and the
 * controller's automatic rebalance through the same path. Each election is a compare-and-swap on the
 * partition's stored assignment, so any broker may run one: a concurrent change (the controller, a
 * leader's ISR change) makes the write stale, and the election is decided once more from the newer
 * assignment before it gives up. It answers once this broker's view shows the new leader, as Kafka's
 * controller answers once the election is in its metadata log.
 */
export class LeaderElections {
  constructor(private readonly deps: LeaderElectionsDeps) {}

  /**
   * Elects leaders of `targets`, or of every partition when null; with null, partitions whose
   * election is not needed are left out of the answer, as Kafka's controller does.
   */
  async elect(
    type: ElectionType,
    targets: readonly ElectionTarget[] | null,
    options: ElectionOptions,
  ): Promise<ElectionResult[]> {
    const deadlineMs = Date.now() + Math.max(0, options.timeoutMs);
    const all = targets === null;
    const wanted = targets ?? this.#allPartitions();
    const results: ElectionResult[] = [];
    // A bounded number of writes at once, as the controller's passes do, so electing every
    // partition of a large cluster does not put thousands of transactions on etcd together.
    for (let start = 0; start < wanted.length; start += MAX_CONCURRENT_WRITES) {
      const chunk = wanted.slice(start, start + MAX_CONCURRENT_WRITES);
      results.push(
        ...(await Promise.all(chunk.map((target) => this.#electOne(type, target, deadlineMs, options)))),
      );
    }
    return all ? results.filter((result) => result.errorCode !== ErrorCode.ELECTION_NOT_NEEDED) : results;
  }

  #allPartitions(): ElectionTarget[] {
    const { view } = this.deps;
    return view
      .topics()
      .flatMap((topic) =>
        view
          .assignmentsOf(topic.name)
          .map((assignment) => ({ topic: topic.name, partition: assignment.partition })),
      );
  }

  async #electOne(
    type: ElectionType,
    target: ElectionTarget,
    deadlineMs: number,
    options: ElectionOptions,
  ): Promise<ElectionResult> {
    const { view, store } = this.deps;
    const cause = options.cause ?? (type === ElectionType.unclean ? 'unclean' : 'preferred-election');
    // One try, and one more when another writer changed the partition between our read and write.
    for (let attempt = 0; ; attempt += 1) {
      const current = view.assignment(target.topic, target.partition);
      if (current === undefined) {
        return failed(target, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `${name(target)} does not exist.`);
      }
      const outcome = this.#decide(type, current);
      if ('errorCode' in outcome) return failed(target, outcome.errorCode, outcome.message);
      try {
        await store.compareAndSetAssignment(outcome.next, options.fence, cause);
      } catch (error) {
        if (error instanceof WeirError && error.code === ErrorCode.INVALID_UPDATE_VERSION && attempt === 0) {
          // The view may not have the newer version yet; deciding again needs it.
          await this.#until(
            () => view.assignment(target.topic, target.partition)?.version !== current.version,
            deadlineMs,
          );
          continue;
        }
        if (error instanceof WeirError) return failed(target, error.code, error.message);
        throw error;
      }
      this.deps.onElected?.(outcome.next, cause);
      const { leader, leaderEpoch } = outcome.next;
      const shown = await this.#until(() => {
        const now = view.assignment(target.topic, target.partition);
        return now !== undefined && now.leaderEpoch >= leaderEpoch;
      }, deadlineMs);
      if (!shown) {
        return failed(
          target,
          ErrorCode.REQUEST_TIMED_OUT,
          `${name(target)}: broker ${leader} was elected, but this broker's view did not show it in time.`,
        );
      }
      return { ...target, errorCode: ErrorCode.NONE, errorMessage: null, leader };
    }
  }

  #decide(type: ElectionType, assignment: PartitionAssignment): ElectionOutcome {
    const { view } = this.deps;
    // A replica back on another disk lost what it acknowledged (KIP-903's rule, docs/architecture.md
    // §6.5): it counts as not live until the controller has taken it out of the ISR.
    const isEligible = (brokerId: number): boolean => {
      if (!view.isLive(brokerId)) return false;
      const recorded = assignment.memberStorage?.[String(brokerId)];
      const registered = view.broker(brokerId)?.storageId;
      return recorded === undefined || registered === undefined || recorded === registered;
    };
    return type === ElectionType.unclean
      ? uncleanElection(assignment, isEligible)
      : preferredElection(assignment, isEligible);
  }

  /** Resolves true once `done()` holds (checked at every view change), false at the deadline. */
  #until(done: () => boolean, deadlineMs: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        stop();
        resolve(value);
      };
      const stop = this.deps.view.onChange(() => {
        if (done()) finish(true);
      });
      const timer = setTimeout(() => finish(done()), Math.max(0, deadlineMs - Date.now()));
    });
  }
}

function name(target: ElectionTarget): string {
  return `${target.topic}-${target.partition}`;
}

function failed(target: ElectionTarget, errorCode: number, errorMessage: string): ElectionResult {
  return { ...target, errorCode, errorMessage };
}
