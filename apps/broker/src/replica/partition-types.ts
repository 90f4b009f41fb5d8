import type { RecordBatchHeader } from '@weir/protocol';
import type { AppendOrigin } from '../log/log-validator';
import type { PartitionLog } from '../log/partition-log';
import type { FollowerLag } from './follower-progress';
import type { PartitionRole } from './partition-role';
import type { Purgatory } from './purgatory';

// The types of a partition's interface, apart from the class in partition.ts so the modules
// around it (the replica manager, the fetch reads, the operator views) can name them.

/** A partition's offsets as its leader serves them. */
export interface PartitionOffsets {
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
  /** Every transaction below it is decided; read_committed readers stop here. */
  lastStableOffset: number;
}

/** How one append asks to be written and answered. */
export interface PartitionAppend {
  origin: AppendOrigin;
  /** -1 waits until the records are durable and below the high watermark; 0 and 1 do not. */
  acks: number;
  /** How long an acks=-1 append may wait; undefined waits as long as it takes. */
  timeoutMs: number | undefined;
  /**
   * Asked, in order with the partition's other appends, before a transactional client batch is
   * written; it refuses by throwing a {@link WeirError}.
   */
  admit?: ((header: RecordBatchHeader) => Promise<void>) | undefined;
  /** Coordinators write only while they lead at the epoch they loaded at. */
  expectedLeaderEpoch?: number | undefined;
}

/** What this broker's replica of a partition is, for the operator views (no role check). */
export interface LocalReplicaState {
  role: PartitionRole;
  leaderEpoch: number;
  leaderId: number;
  replicas: readonly number[];
  isr: readonly number[];
  elr: readonly number[];
  offsets: PartitionOffsets;
  /** The partition's min.insync.replicas. */
  minInsyncReplicas: number;
  /** The leader's view of its followers; empty on a follower. */
  followers: readonly FollowerLag[];
  log: Pick<PartitionLog, 'sizeBytes' | 'segments' | 'producerState'>;
}

/** The waits a partition answers: acks=-1 produces and long-polling fetches. */
export interface PartitionWaits {
  produce: Purgatory;
  fetch: Purgatory;
}

/** The key follower fetches wait on: every change of the leader's log end wakes them. */
export function replicaFetchKey(key: string): string {
  return `${key}\u0000replicas`;
}

/** How a partition read is bounded and checked (see `Partition.read`). */
export interface PartitionReadOptions {
  maxBytes: number;
  minOneBatch?: boolean;
  isolation: 'read_committed' | 'read_uncommitted';
  /** Also get the aborted transactions overlapping the read at read_uncommitted (record scans). */
  withAbortedTransactions?: boolean;
  currentLeaderEpoch?: number | undefined;
  expectedLeaderEpoch?: number | undefined;
  /** A lower bound than the high watermark (a coordinator replays what was there when it began). */
  maxOffset?: number | undefined;
}

/** What taking on an assignment did, for the leadership listeners (the coordinators). */
export type RoleTransition =
  | { kind: 'changed' | 'updated'; becameLeader: boolean; resigned: boolean }
  | { kind: 'refused'; reason: string };

/** The key of a topic-partition in maps and purgatories. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
