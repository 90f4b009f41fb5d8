import {
  ErrorCode,
  isControlBatch,
  isTransactionalBatch,
  type RecordBatchHeader,
  setBatchBaseOffset,
  setBatchLogAppendTime,
  setBatchPartitionLeaderEpoch,
  WeirError,
} from '@weir/protocol';
import { type ControlMarker, readControlType } from './control-batch';
import type { EpochEntry } from './leader-epoch-checkpoint';
import type { LogConfig } from './log-config';
import type { AppendOptions, AppendResult } from './partition-log-types';
import { lastSequenceOf, NO_OPEN_TRANSACTION, type ProducerStateManager } from './producer-state';
import type { BatchToWrite } from './segment';
import type { AbortedTransaction } from './transaction-index';
import type { TransactionVerifications, VerificationGuard } from './transaction-verification';

/** An append waiting in a partition's queue. */
export interface PendingAppend {
  batch: Buffer;
  header: RecordBatchHeader;
  options: AppendOptions;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** What a group of appends becomes: the batches to write and each append's answer. */
export interface PreparedGroup {
  toWrite: BatchToWrite[];
  completions: { item: PendingAppend; result: Omit<AppendResult, 'logStartOffset'> }[];
  /** The log end offset once the batches are written. */
  nextOffset: number;
  /** Transactions closed by ABORT markers in this group, in offset order, for the `.txnindex`. */
  aborted: AbortedTransaction[];
  /** The leader epoch and base offset of every batch to write, for the leader-epoch cache. */
  epochStarts: EpochEntry[];
}

interface GroupContext {
  producerState: ProducerStateManager;
  verifications: TransactionVerifications;
  timestampType: LogConfig['timestampType'];
  nextOffset: number;
  nowMs: number;
}

/**
 * Turns the appends queued while the previous write was in flight into one write: checks each
 * idempotent batch's sequence (a retry of a recent batch is answered with its original offsets and
 * not written again; a gap or a fenced epoch is refused), assigns offsets by rewriting each batch's
 * base offset and stamps the leader epoch it is written under in place, stamps the append time on
 * LogAppendTime topics (batch attribute and max timestamp, which every record then reads as its
 * timestamp), and records the batch in the producer state so the next batch in the same group is
 * checked against it. Transaction rules are checked here too, against the state as of the batch before: a
 * non-transactional batch from a producer with an open transaction is INVALID_TXN_STATE, and a
 * marker from an older producer epoch or coordinator epoch is fenced. Refused appends are rejected
 * here; the rest complete once the write is done.
 */
export function prepareGroup(group: readonly PendingAppend[], context: GroupContext): PreparedGroup {
  const { producerState, nowMs } = context;
  let nextOffset = context.nextOffset;
  const toWrite: BatchToWrite[] = [];
  const completions: PreparedGroup['completions'] = [];
  const aborted: AbortedTransaction[] = [];
  const epochStarts: EpochEntry[] = [];
  for (const item of group) {
    const { header, batch, options } = item;
    const producerId = Number(header.producerId);
    const isControl = isControlBatch(header.attributes);
    // A control batch of a type we do not interpret takes its offsets but changes no state.
    const control = producerId >= 0 && isControl ? readControlType(batch) : undefined;
    if (producerId >= 0 && !isControl && options.origin === 'client') {
      const check = producerState.check(
        producerId,
        header.producerEpoch,
        header.baseSequence,
        lastSequenceOf(header.baseSequence, header.lastOffsetDelta),
      );
      if (check.kind === 'rejected') {
        item.reject(new WeirError(check.errorCode, { detail: check.reason }));
        continue;
      }
      if (check.kind === 'duplicate') {
        const { firstOffset, lastOffset } = check.batch;
        // Kafka answers a retry with the append time the batch got, which on a LogAppendTime topic
        // is the timestamp the producer state kept for it.
        const logAppendTimeMs = context.timestampType === 'LogAppendTime' ? check.batch.timestampMs : -1;
        completions.push({
          item,
          result: { baseOffset: firstOffset, lastOffset, logAppendTimeMs, duplicate: true },
        });
        continue;
      }
      const refusal =
        nonTransactionalRefusal(producerState, producerId, header) ??
        unverifiedRefusal(
          producerState,
          context.verifications,
          producerId,
          header,
          options.verificationGuard,
        );
      if (refusal !== undefined) {
        item.reject(refusal);
        continue;
      }
    }
    if (control !== undefined && options.origin === 'coordinator') {
      const refusal = markerRefusal(producerState, producerId, header.producerEpoch, control);
      if (refusal !== undefined) {
        item.reject(refusal);
        continue;
      }
      context.verifications.end(producerId);
    }
    // The leader checked the marker; its replica only records what it did.
    if (control !== undefined && options.origin === 'replication') context.verifications.end(producerId);
    // A follower keeps the leader's offsets, which may skip some: a compacted leader's log has
    // holes where the cleaner removed whole batches, and its replicas reproduce them exactly.
    const baseOffset = options.origin === 'replication' ? Number(header.baseOffset) : nextOffset;
    const lastOffset = baseOffset + header.lastOffsetDelta;
    if (options.origin === 'replication') {
      // A follower stores the leader's batch byte for byte: its offsets and epoch were assigned by
      // the leader, and a batch that starts below this log's end belongs to another history.
      if (baseOffset < nextOffset) {
        item.reject(
          new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
            detail: `a replicated batch starts at offset ${header.baseOffset}, but this replica's log ends at ${nextOffset}`,
          }),
        );
        continue;
      }
      epochStarts.push({ epoch: header.partitionLeaderEpoch, startOffset: baseOffset });
    } else {
      setBatchBaseOffset(batch, BigInt(baseOffset));
      const leaderEpoch = options.leaderEpoch ?? -1;
      setBatchPartitionLeaderEpoch(batch, leaderEpoch);
      epochStarts.push({ epoch: leaderEpoch, startOffset: baseOffset });
    }
    let logAppendTimeMs = -1;
    let maxTimestampMs = header.maxTimestampMs;
    // A coordinator's batches (markers) get the append time too, as Kafka's are; a replica keeps
    // the time its leader stamped.
    if (context.timestampType === 'LogAppendTime' && options.origin !== 'replication') {
      setBatchLogAppendTime(batch, nowMs);
      logAppendTimeMs = nowMs;
      maxTimestampMs = nowMs;
    }
    if (producerId >= 0 && (!isControl || control !== undefined)) {
      const completed = producerState.recordBatch({
        producerId,
        producerEpoch: header.producerEpoch,
        firstSequence: header.baseSequence,
        lastSequence: isControl ? -1 : lastSequenceOf(header.baseSequence, header.lastOffsetDelta),
        firstOffset: baseOffset,
        lastOffset,
        timestampMs: maxTimestampMs,
        isTransactional: isTransactionalBatch(header.attributes),
        control,
      });
      if (completed?.aborted) {
        // Kafka's LSO after the abort: where the earliest transaction still open starts, or just
        // past the marker. A read_committed search of the index stops once it reaches its bound.
        const { firstOffset } = completed;
        const lastStableOffset = producerState.firstUnstableOffset() ?? lastOffset + 1;
        aborted.push({ producerId, firstOffset, lastOffset, lastStableOffset });
      }
    }
    toWrite.push({ bytes: batch, baseOffset, lastOffset, maxTimestampMs });
    completions.push({ item, result: { baseOffset, lastOffset, logAppendTimeMs, duplicate: false } });
    nextOffset = lastOffset + 1;
  }
  return { toWrite, completions, nextOffset, aborted, epochStarts };
}

/**
 * Kafka refuses a non-transactional batch from a producer whose transaction is open here: its
 * records would sit inside the transaction's range without belonging to it.
 */
function nonTransactionalRefusal(
  producerState: ProducerStateManager,
  producerId: number,
  header: RecordBatchHeader,
): WeirError | undefined {
  if (isTransactionalBatch(header.attributes)) return undefined;
  const open = producerState.transactionView(producerId)?.currentTransactionFirstOffset;
  if (open === undefined || open === NO_OPEN_TRANSACTION) return undefined;
  return new WeirError(ErrorCode.INVALID_TXN_STATE, {
    detail: `producer ${producerId} sent a non-transactional batch while its transaction from offset ${open} is open`,
  });
}

/**
 * A transactional batch that would open a transaction here was admitted before a marker for its
 * producer was written (transaction-verification.ts): the transaction it was admitted to is over,
 * so it must not start another one.
 */
function unverifiedRefusal(
  producerState: ProducerStateManager,
  verifications: TransactionVerifications,
  producerId: number,
  header: RecordBatchHeader,
  guard: VerificationGuard | undefined,
): WeirError | undefined {
  if (guard === undefined || !isTransactionalBatch(header.attributes)) return undefined;
  const open = producerState.transactionView(producerId)?.currentTransactionFirstOffset;
  if (open !== undefined && open !== NO_OPEN_TRANSACTION) return undefined;
  if (verifications.holds(producerId, guard)) return undefined;
  return new WeirError(ErrorCode.INVALID_TXN_STATE, {
    detail: `the transaction producer ${producerId}'s batch was admitted to ended before the batch was written`,
  });
}

/**
 * A marker from an older producer epoch than this partition has seen belongs to a fenced
 * producer (INVALID_PRODUCER_EPOCH); one from an older coordinator epoch comes from a coordinator
 * that lost the transactional id (TRANSACTION_COORDINATOR_FENCED). Either would corrupt the state.
 */
function markerRefusal(
  producerState: ProducerStateManager,
  producerId: number,
  producerEpoch: number,
  control: ControlMarker,
): WeirError | undefined {
  const known = producerState.transactionView(producerId);
  if (known === undefined) return undefined;
  if (producerEpoch < known.producerEpoch) {
    return new WeirError(ErrorCode.INVALID_PRODUCER_EPOCH, {
      detail: `marker epoch ${producerEpoch} of producer ${producerId} is older than the current ${known.producerEpoch}`,
    });
  }
  if (control.coordinatorEpoch < known.coordinatorEpoch) {
    return new WeirError(ErrorCode.TRANSACTION_COORDINATOR_FENCED, {
      detail: `coordinator epoch ${control.coordinatorEpoch} of the marker is older than ${known.coordinatorEpoch}`,
    });
  }
  return undefined;
}
