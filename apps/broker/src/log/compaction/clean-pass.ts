import {
  decodeRecordBatch,
  isControlBatch,
  isTransactionalBatch,
  type RecordBatchHeader,
} from '@weir/protocol';
import type { ProducerStateManager } from '../producer-state';
import type { AbortedTransaction } from '../transaction-index';
import { cleanedBatch } from './cleaned-batch';
import type { KeyOffsetMap } from './key-offset-map';
import { batchRetention, type CleanedRecord } from './record-retention';

/** What one batch became: its bytes to write (undefined when it is dropped whole), and counts. */
export interface BatchOutcome {
  readonly bytes: Buffer | undefined;
  readonly keptRecords: number;
  readonly removedRecords: number;
}

/**
 * The decisions of one clean, batch by batch in offset order from the log start: which records of
 * each batch survive (record-retention.ts), with the state that spans batches — which aborted
 * transactions the batches belong to, and whether the transaction a marker closes kept any record.
 */
export class CleanPass {
  readonly #isAborted: (producerId: number, offset: number) => boolean;
  /** Producers with a transaction under way in the pass, and whether it kept a record so far. */
  readonly #openTransactionKept = new Map<number, boolean>();
  /** Offsets of the markers this pass kept, so their aborted-transaction entries are kept too. */
  readonly keptMarkerOffsets = new Set<number>();

  constructor(
    private readonly map: KeyOffsetMap,
    private readonly producerState: ProducerStateManager,
    aborted: readonly AbortedTransaction[],
  ) {
    this.#isAborted = abortedLookup(aborted);
  }

  /**
   * Cleans one stored batch. `body` may be a view of a reused buffer: what is returned never
   * shares memory with it. `retainDeletes` says whether tombstones and markers of emptied
   * transactions in this batch's segment are still within delete.retention.ms.
   */
  clean(body: Buffer, header: RecordBatchHeader, retainDeletes: boolean): BatchOutcome {
    const decoded = decodeRecordBatch(body, { verifyCrc: false });
    // Every stored batch was validated on append or recovery; one that no longer decodes is damage.
    if (!decoded.ok) throw decoded.error;
    const batch = decoded.value;
    const baseOffset = Number(header.baseOffset);
    const lastOffset = baseOffset + header.lastOffsetDelta;
    const producerId = Number(header.producerId);
    const isControl = isControlBatch(header.attributes);
    const isTransactional = isTransactionalBatch(header.attributes);
    const records: CleanedRecord[] = batch.records.map((record) => ({
      offset: Number(record.offset),
      key: record.key,
      isTombstone: record.value === null,
    }));
    const lastOfProducer = producerId >= 0 ? this.producerState.entry(producerId)?.batches.at(-1) : undefined;
    const retention = batchRetention(
      {
        isControl,
        isAborted: isTransactional && !isControl && this.#isAborted(producerId, baseOffset),
        isLastOfLiveProducer: lastOfProducer?.lastOffset === lastOffset,
        transactionHasRecords: this.#openTransactionKept.get(producerId) ?? false,
      },
      records,
      { map: this.map, retainDeletes },
    );
    if (isControl) {
      this.#openTransactionKept.delete(producerId);
      if (retention.keptOffsets.length > 0) this.keptMarkerOffsets.add(baseOffset);
    } else if (isTransactional) {
      const keptBefore = this.#openTransactionKept.get(producerId) ?? false;
      this.#openTransactionKept.set(producerId, keptBefore || retention.keptOffsets.length > 0);
    }
    const keptRecords = retention.keptOffsets.length;
    const removedRecords = records.length - keptRecords;
    if (keptRecords === records.length) return { bytes: Buffer.from(body), keptRecords, removedRecords };
    const bytes = cleanedBatch(body, new Set(retention.keptOffsets), retention.keepBatch, batch);
    // An unchanged batch comes back as `body` itself, which the caller's buffer will overwrite.
    return { bytes: bytes === body ? Buffer.from(body) : bytes, keptRecords, removedRecords };
  }
}

/**
 * Puts the keys of one dirty batch into the map (Kafka's buildOffsetMap): markers and aborted
 * records never supersede anything. Returns false at the first key that no longer fits; the map's
 * latest offset then says how far this pass reaches.
 */
export function putBatchKeys(
  map: KeyOffsetMap,
  body: Buffer,
  header: RecordBatchHeader,
  isAborted: (producerId: number, offset: number) => boolean,
): boolean {
  if (isControlBatch(header.attributes)) return true;
  if (
    isTransactionalBatch(header.attributes) &&
    isAborted(Number(header.producerId), Number(header.baseOffset))
  )
    return true;
  const decoded = decodeRecordBatch(body, { verifyCrc: false });
  if (!decoded.ok) throw decoded.error;
  for (const record of decoded.value.records) {
    if (record.key === null) continue;
    if (!map.put(record.key, Number(record.offset))) return false;
  }
  return true;
}

/** A lookup of whether a transactional batch belongs to an aborted transaction. */
export function abortedLookup(
  aborted: readonly AbortedTransaction[],
): (producerId: number, offset: number) => boolean {
  const byProducer = new Map<number, AbortedTransaction[]>();
  for (const entry of aborted) {
    const list = byProducer.get(entry.producerId) ?? [];
    list.push(entry);
    byProducer.set(entry.producerId, list);
  }
  return (producerId, offset) =>
    byProducer.get(producerId)?.some((entry) => entry.firstOffset <= offset && offset <= entry.lastOffset) ??
    false;
}
