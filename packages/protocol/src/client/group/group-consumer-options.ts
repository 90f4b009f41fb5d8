import type { Connection } from '../connection';
import type { Assignor } from './assignor';
import type { CoordinatorAddress } from './coordinator';
import type { OffsetToCommit } from './group-offsets';

/** A partition of the assignment. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** A position to commit, stamped with the generation whose work produced it. */
export interface GenerationOffset extends OffsetToCommit {
  /** Commits of another generation than the current one are refused locally. */
  readonly generationId: number;
}

/** Rebalance listeners. They may be async; the rebalance waits for them. */
export interface RebalanceListeners {
  /**
   * Before partitions are given up: all of them at every rebalance under the eager protocol, only
   * those that move to another member under the cooperative one, and all of them on close. Commits
   * of the ending generation are still accepted here; once it returns they are refused.
   */
  readonly onRevoked?: (partitions: TopicPartition[]) => void | Promise<void>;
  /**
   * After the new assignment is known and its start offsets are chosen, before records flow: the
   * whole assignment under the eager protocol, only the added partitions under the cooperative one
   * (not called when nothing was added).
   */
  readonly onAssigned?: (partitions: TopicPartition[]) => void | Promise<void>;
}

/** Opens the consumer's own connection to the group coordinator. */
export type CoordinatorConnector = (address: CoordinatorAddress) => Connection;

/** Settings of a {@link GroupConsumer}. */
export interface GroupConsumerOptions extends RebalanceListeners {
  readonly groupId: string;
  /**
   * Static membership (KIP-345, Kafka's group.instance.id): a member that restarts with the same
   * instance id within the session timeout gets its partitions back without a rebalance, and
   * `close` does not leave the group (the session timeout ends the membership if it does not come
   * back). Two live members with one instance id: the older one is fenced (FENCED_INSTANCE_ID).
   */
  readonly groupInstanceId?: string;
  /** The coordinator expels a member it has not heard from for this long. Default 10 s. */
  readonly sessionTimeoutMs?: number;
  /** How long the coordinator waits for every member to rejoin. Default 60 s. */
  readonly rebalanceTimeoutMs?: number;
  /** Default 3 s (a third of the session timeout, as in Kafka). */
  readonly heartbeatIntervalMs?: number;
  /** In preference order; all members must share one name. Default `[rangeAssignor]`. */
  readonly assignors?: readonly Assignor[];
  /** Commit processed positions every `autoCommitIntervalMs`, before revoking and on close. Default true. */
  readonly autoCommit?: boolean;
  /** Default 5 s. */
  readonly autoCommitIntervalMs?: number;
  /**
   * Where to start a partition without a committed offset (and what to do when the position is
   * outside the log): `'none'` fails `poll` with an error naming the partition. Default `'latest'`.
   */
  readonly autoOffsetReset?: 'earliest' | 'latest' | 'none';
  /** The longest wait of one `poll` (and so of a Fetch at the broker). Default 5 s. */
  readonly maxWaitMs?: number;
  /**
   * `'read_committed'` (the default, as in the Java client and librdkafka) returns transactional
   * records only once committed; `'read_uncommitted'` returns everything. See `ConsumerOptions`.
   */
  readonly isolationLevel?: 'read_committed' | 'read_uncommitted';
  /**
   * Opens the coordinator connection. Group traffic gets a connection of its own so heartbeats
   * never queue behind a parked Fetch or JoinGroup of someone else. Default: a plain TCP
   * {@link Connection} with the client's id and request timeout.
   */
  readonly connectCoordinator?: CoordinatorConnector;
}
