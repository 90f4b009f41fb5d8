import type { FlushedPointFile } from './flushed-point';
import type { LeaderEpochCache } from './leader-epoch-cache';
import type { AppendOrigin } from './log-validator';
import type { Segment } from './segment';
import type { StoredRecords } from './segment-region';
import type { StorageError } from './storage';
import type { AbortedTransaction } from './transaction-index';
import type { VerificationGuard } from './transaction-verification';

/*
 * The types of a partition log's interface, apart from the class in partition-log.ts so the
 * modules it uses (append-group.ts, read-batches.ts) can name them without importing the class.
 */

/** A clock, injected so retention and rolling can be tested without waiting. */
export interface Clock {
  nowMs(): number;
}

export interface AppendOptions {
  origin: AppendOrigin;
  /**
   * The leader epoch the batch is written under (the partition's, from its assignment), stamped
   * into its partition leader epoch field and recorded in the leader-epoch cache; -1 when not given.
   */
  leaderEpoch?: number;
  /**
   * For a transactional client batch admitted by the transaction coordinator: the guard taken
   * before it was asked (transaction-verification.ts). A batch that would open a transaction is
   * refused with INVALID_TXN_STATE if a marker for its producer was written since.
   */
  verificationGuard?: VerificationGuard;
}

/**
 * What an append returns once its batch is written (not yet necessarily fdatasync'd: whoever needs
 * durability waits for the log's flushed offset to pass `lastOffset`).
 */
export interface AppendResult {
  baseOffset: number;
  lastOffset: number;
  /** The broker's append time for LogAppendTime topics, else -1. */
  logAppendTimeMs: number;
  logStartOffset: number;
  /** True when this was a producer retry of a batch already in the log (same offsets returned). */
  duplicate: boolean;
}

export interface ReadOptions {
  maxBytes: number;
  /**
   * Exclusive upper bound on batch base offsets. The log itself knows no high watermark or last
   * stable offset; the replica layer, which owns them, passes the bound the reader may see.
   */
  maxOffset: number;
  /** read_committed reads also get the aborted transactions that overlap what they return. */
  isolation?: 'read_committed' | 'read_uncommitted';
  /**
   * Gets the aborted transactions overlapping what is returned whatever the isolation (a record
   * scan marks them in a read_uncommitted read).
   */
  withAbortedTransactions?: boolean;
  /** Return the first batch even when it is larger than maxBytes (KIP-74). Default true. */
  minOneBatch?: boolean;
}

/**
 * A read whose records may stay on disk until written: more than `deferAboveBytes` of them come back
 * as a region of the segment file instead of bytes (Fetch answers; see segment-region.ts).
 */
export interface DeferringReadOptions extends ReadOptions {
  deferAboveBytes: number;
}

export interface ReadResult<Records extends StoredRecords = Buffer> {
  /** Whole stored batches, byte-for-byte; empty when there is nothing to return. */
  records: Records;
  logStartOffset: number;
  logEndOffset: number;
  /** read_committed (or `withAbortedTransactions`) only: the aborted transactions overlapping the returned batches. */
  abortedTransactions: AbortedTransaction[] | undefined;
}

/**
 * What changed in a log, for its subscribers: the log end moved (`appended`), the flushed offset
 * moved (`flushed`), the log start moved (`log-start`), a tail was cut (`truncated`), or a storage
 * error took it offline (`offline`).
 */
export type LogChange = 'appended' | 'flushed' | 'log-start' | 'truncated' | 'offline';

/** What the log tells its owner (the log manager). */
export interface PartitionLogEvents {
  /** The log hit a disk error and is now offline; every later call fails. */
  onOffline(error: StorageError): void;
  /**
   * A write failed for want of disk space and was rolled back; writes are refused (reads served)
   * until the owner finds space again and calls `resumeWrites`.
   */
  onOutOfSpace(error: StorageError): void;
  /** The log start offset moved (delete records, retention); the owner checkpoints it. */
  onLogStartOffsetChanged(): void;
  /** Log lines for operators. */
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
  /** A segment was renamed to `.deleted`; the owner unlinks its files after file.delete.delay.ms. */
  scheduleDelete(segment: Segment, reason: string): void;
}

export interface PartitionLogState {
  segments: Segment[];
  logStartOffset: number;
  recoveryPoint: number;
  /** Where each fdatasync round records how far the data is durable. */
  flushedPointFile: FlushedPointFile;
  /** Where each leader epoch's first offset is, cut to the log already. */
  leaderEpochs: LeaderEpochCache;
}
