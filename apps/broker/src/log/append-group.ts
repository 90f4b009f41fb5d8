import {
  isControlBatch,
  isTransactionalBatch,
  type RecordBatchHeader,
  setBatchBaseOffset,
  setBatchLogAppendTime,
  setBatchPartitionLeaderEpoch,
  WeirError,
} from '@weir/protocol';
import { readControlType } from './control-batch';
import type { LogConfig } from './log-config';
import type { AppendOptions, AppendResult } from './partition-log';
import { lastSequenceOf, type ProducerStateManager } from './producer-state';
import type { BatchToWrite } from './segment';

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
}

interface GroupContext {
  producerState: ProducerStateManager;
  timestampType: LogConfig['timestampType'];
  nextOffset: number;
  nowMs: number;
}

/**
 * Turns the appends queued while the previous write was in flight into one write: checks each
 * idempotent batch's sequence (a retry of a recent batch is answered with its original offsets and
 * not written again; a gap or a fenced epoch is refused), assigns offsets by rewriting each batch's
 * base offset and leader epoch in place, stamps the append time on LogAppendTime topics, and
 * records the batch in the producer state so the next batch in the same group is checked against
 * it. Refused appends are rejected here; the rest complete once the write is done.
 */
export function prepareGroup(group: readonly PendingAppend[], context: GroupContext): PreparedGroup {
  const { producerState, nowMs } = context;
  let nextOffset = context.nextOffset;
  const toWrite: BatchToWrite[] = [];
  const completions: PreparedGroup['completions'] = [];
  for (const item of group) {
    const { header, batch, options } = item;
    const producerId = Number(header.producerId);
    if (producerId >= 0 && !isControlBatch(header.attributes) && options.origin === 'client') {
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
        completions.push({
          item,
          result: { baseOffset: firstOffset, lastOffset, logAppendTimeMs: -1, duplicate: true },
        });
        continue;
      }
    }
    const baseOffset = nextOffset;
    const lastOffset = baseOffset + header.lastOffsetDelta;
    setBatchBaseOffset(batch, BigInt(baseOffset));
    setBatchPartitionLeaderEpoch(batch, options.leaderEpoch ?? -1);
    let logAppendTimeMs = -1;
    let maxTimestampMs = header.maxTimestampMs;
    if (context.timestampType === 'LogAppendTime' && options.origin === 'client') {
      setBatchLogAppendTime(batch, nowMs);
      logAppendTimeMs = nowMs;
      maxTimestampMs = nowMs;
    }
    recordProducerBatch(producerState, header, batch, baseOffset, lastOffset, maxTimestampMs);
    toWrite.push({ bytes: batch, baseOffset, lastOffset, maxTimestampMs });
    completions.push({ item, result: { baseOffset, lastOffset, logAppendTimeMs, duplicate: false } });
    nextOffset = lastOffset + 1;
  }
  return { toWrite, completions, nextOffset };
}

function recordProducerBatch(
  producerState: ProducerStateManager,
  header: RecordBatchHeader,
  batch: Buffer,
  baseOffset: number,
  lastOffset: number,
  timestampMs: number,
): void {
  const producerId = Number(header.producerId);
  if (producerId < 0) return;
  const isControl = isControlBatch(header.attributes);
  const control = isControl ? readControlType(batch) : undefined;
  // A control batch of a type we do not interpret takes its offsets but changes no state.
  if (isControl && !control) return;
  producerState.recordBatch({
    producerId,
    producerEpoch: header.producerEpoch,
    firstSequence: header.baseSequence,
    lastSequence: isControl ? -1 : lastSequenceOf(header.baseSequence, header.lastOffsetDelta),
    firstOffset: baseOffset,
    lastOffset,
    timestampMs,
    isTransactional: isTransactionalBatch(header.attributes),
    control,
  });
}
