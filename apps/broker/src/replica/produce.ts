import {
  BATCH_LOG_OVERHEAD_BYTES,
  ErrorCode,
  iterateBatches,
  type RecordBatchHeader,
  WeirError,
} from '@weir/protocol';
import type { TransactionMembershipCheck } from '../txn/transaction-contracts';
import type { Partition } from './partition';

/** One partition of a Produce request. */
export interface ProduceRequest {
  topic: string;
  partition: number;
  records: Buffer | null;
  acks: number;
  /** The request's timeout: how long acks=-1 may wait for durability. */
  timeoutMs: number;
  /** The request's transactional id, null for other producers. */
  transactionalId: string | null;
}

export interface ProduceResult {
  baseOffset: number;
  logAppendTimeMs: number;
  logStartOffset: number;
}

/** Bytes, records and topics a produce or fetch moved; the metrics layer counts them. */
export interface TrafficObserver {
  bytesIn(topic: string, bytes: number, records: number): void;
  bytesOut(topic: string, bytes: number, records: number): void;
}

/** What a produce needs from the replica manager. */
export interface ProduceContext {
  partition(topic: string, partition: number): Partition;
  isInternal(topic: string): boolean;
  transactions: TransactionMembershipCheck;
  traffic: TrafficObserver;
}

const VALID_ACKS = new Set([-1, 0, 1]);

/**
 * One partition of a Produce: checks the request (acks, topic, exactly one batch: Produce v3+
 * carries one per partition), then appends as the partition's leader, with the transaction
 * coordinator asked first about a transactional batch. Nothing here awaits before the append is
 * queued, so appends keep the order their requests arrived in.
 */
export function produceToPartition(request: ProduceRequest, context: ProduceContext): Promise<ProduceResult> {
  let written: Promise<{
    baseOffset: number;
    lastOffset: number;
    logAppendTimeMs: number;
    logStartOffset: number;
  }>;
  let records: Buffer;
  try {
    if (!VALID_ACKS.has(request.acks)) {
      throw new WeirError(ErrorCode.INVALID_REQUIRED_ACKS, {
        detail: `acks ${request.acks} is not -1, 0 or 1`,
      });
    }
    const partition = context.partition(request.topic, request.partition);
    if (context.isInternal(request.topic)) {
      throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, {
        detail: `clients cannot produce to the internal topic ${request.topic}`,
      });
    }
    records = checkedRecords(request.records);
    written = partition.append(records, {
      origin: 'client',
      acks: request.acks,
      timeoutMs: request.timeoutMs,
      admit: (header) => admitTransactional(request, header, context.transactions),
    });
  } catch (error) {
    return Promise.reject(error);
  }
  return written.then((result) => {
    context.traffic.bytesIn(request.topic, records.length, result.lastOffset - result.baseOffset + 1);
    return {
      baseOffset: result.baseOffset,
      logAppendTimeMs: result.logAppendTimeMs,
      logStartOffset: result.logStartOffset,
    };
  });
}

/** The partition's one batch; anything else is the producer's mistake, answered as Kafka does. */
function checkedRecords(records: Buffer | null): Buffer {
  if (!records || records.length < BATCH_LOG_OVERHEAD_BYTES) {
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, { detail: 'the partition carries no record batch' });
  }
  // Only a second complete batch is "more than one batch"; bytes after a batchLength that lies
  // (short, zero, negative) are a corrupt batch, which the log answers with CORRUPT_MESSAGE.
  const [first, second] = iterateBatches(records);
  if (first?.kind === 'batch' && second?.kind === 'batch') {
    throw new WeirError(ErrorCode.INVALID_RECORD, {
      detail: 'produce requests of version 3 and above carry exactly one record batch per partition',
    });
  }
  return records;
}

/**
 * A transactional batch may only go to a partition its producer added to the ongoing transaction
 * (AddPartitionsToTxn): otherwise INVALID_TXN_STATE, or INVALID_PRODUCER_EPOCH when a newer epoch
 * owns the transactional id. A coordinator that cannot answer now (loading, or not on this broker)
 * is NOT_ENOUGH_REPLICAS, the retriable code Kafka gives producers for a verification that could
 * not be made (KIP-890).
 */
async function admitTransactional(
  request: ProduceRequest,
  header: RecordBatchHeader,
  transactions: TransactionMembershipCheck,
): Promise<void> {
  const { producerId, producerEpoch } = header;
  const verdict = await transactions.membership({
    transactionalId: request.transactionalId,
    producerId,
    producerEpoch,
    topic: request.topic,
    partition: request.partition,
  });
  switch (verdict) {
    case 'member':
      return;
    case 'fenced':
      throw new WeirError(ErrorCode.INVALID_PRODUCER_EPOCH, {
        detail: `producer ${producerId} epoch ${producerEpoch} is fenced by a newer epoch`,
      });
    case 'not-member':
      throw new WeirError(ErrorCode.INVALID_TXN_STATE, {
        detail: `${request.topic}-${request.partition} is not part of an ongoing transaction of producer ${producerId}`,
      });
    case 'unavailable':
      throw new WeirError(ErrorCode.NOT_ENOUGH_REPLICAS, {
        detail: `the transaction coordinator cannot confirm producer ${producerId}'s transaction now`,
      });
  }
}
