import { isControlBatch, isTransactionalBatch, type RecordBatchHeader } from '@weir/protocol';
import type { ProducerStateManager } from '../producer-state';
import type { AbortedTransaction } from '../transaction-index';
import { BatchRecords } from './batch-records';
import { cleanedBatch, emptiedBatch } from './cleaned-batch';
import type { KeyOffsetMap } from './key-offset-map';
import {
  batchRule,
  KEY_NOT_IN_MAP,
  NO_KEY,
  type RecordRuleContext,
  recordSurvives,
} from './record-retention';

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
  readonly #records = new BatchRecords();
  #keep = new Uint8Array(256);
  readonly #rule: RecordRuleContext;

  constructor(
    private readonly map: KeyOffsetMap,
    private readonly producerState: ProducerStateManager,
    aborted: readonly AbortedTransaction[],
  ) {
    this.#isAborted = abortedLookup(aborted);
    this.#rule = { mapLatestOffset: map.latestOffset, retainDeletes: true };
  }

  /**
   * Cleans one stored batch. `body` may be a view of a reused buffer: what is returned never
   * shares memory with it. `retainDeletes` says whether tombstones and markers of emptied
   * transactions in this batch's segment are still within delete.retention.ms.
   */
  clean(body: Buffer, header: RecordBatchHeader, retainDeletes: boolean): BatchOutcome {
    const baseOffset = Number(header.baseOffset);
    const lastOffset = baseOffset + header.lastOffsetDelta;
    const producerId = Number(header.producerId);
    const isControl = isControlBatch(header.attributes);
    const isTransactional = isTransactionalBatch(header.attributes);
    const lastOfProducer = producerId >= 0 ? this.producerState.entry(producerId)?.batches.at(-1) : undefined;
    const isLastOfLiveProducer = lastOfProducer?.lastOffset === lastOffset;
    const rule = batchRule(
      {
        isControl,
        isAborted: isTransactional && !isControl && this.#isAborted(producerId, baseOffset),
        isLastOfLiveProducer,
        transactionHasRecords: this.#openTransactionKept.get(producerId) ?? false,
      },
      retainDeletes,
    );
    const count = header.recordCount;
    const keptRecords =
      rule === 'keep-all'
        ? count
        : rule === 'drop-all'
          ? 0
          : this.#markSurvivors(body, header, retainDeletes);
    if (isControl) {
      this.#openTransactionKept.delete(producerId);
      if (keptRecords > 0) this.keptMarkerOffsets.add(baseOffset);
    } else if (isTransactional) {
      const keptBefore = this.#openTransactionKept.get(producerId) ?? false;
      this.#openTransactionKept.set(producerId, keptBefore || keptRecords > 0);
    }
    const removedRecords = count - keptRecords;
    let bytes: Buffer | undefined;
    if (keptRecords === 0) bytes = isLastOfLiveProducer ? emptiedBatch(body, header) : undefined;
    else if (keptRecords === count) bytes = Buffer.from(body);
    else bytes = cleanedBatch(body, header, this.#records, this.#keep, keptRecords);
    return { bytes, keptRecords, removedRecords };
  }

  /** Loads the batch's records and flags the survivors in `#keep`; returns how many. */
  #markSurvivors(body: Buffer, header: RecordBatchHeader, retainDeletes: boolean): number {
    const records = this.#records;
    records.load(body, header);
    const count = records.count;
    if (this.#keep.length < count) this.#keep = new Uint8Array(Math.max(count, this.#keep.length * 2));
    const keep = this.#keep;
    const rule = this.#rule;
    rule.mapLatestOffset = this.map.latestOffset;
    rule.retainDeletes = retainDeletes;
    const baseOffset = Number(header.baseOffset);
    const { data, keyStart, keyLength, offsetDelta, valueIsNull } = records;
    let kept = 0;
    for (let index = 0; index < count; index++) {
      const offset = baseOffset + offsetDelta[index]!;
      const length = keyLength[index]!;
      const keyLatestOffset =
        offset > rule.mapLatestOffset
          ? KEY_NOT_IN_MAP
          : length < 0
            ? NO_KEY
            : this.map.offsetAt(data, keyStart[index]!, length);
      const survives = recordSurvives(offset, keyLatestOffset, valueIsNull[index] === 1, rule);
      keep[index] = survives ? 1 : 0;
      if (survives) kept += 1;
    }
    return kept;
  }
}

/**
 * Puts the keys of dirty batches into the map (Kafka's buildOffsetMap): markers and aborted
 * records never supersede anything. `put` returns false at the first key that no longer fits; the
 * map's latest offset then says how far this pass reaches.
 */
export class OffsetMapFill {
  readonly #records = new BatchRecords();

  constructor(
    private readonly map: KeyOffsetMap,
    private readonly isAborted: (producerId: number, offset: number) => boolean,
  ) {}

  put(body: Buffer, header: RecordBatchHeader): boolean {
    if (isControlBatch(header.attributes)) return true;
    if (
      isTransactionalBatch(header.attributes) &&
      this.isAborted(Number(header.producerId), Number(header.baseOffset))
    )
      return true;
    const records = this.#records;
    records.load(body, header);
    const baseOffset = Number(header.baseOffset);
    const { data, keyStart, keyLength, offsetDelta } = records;
    for (let index = 0; index < records.count; index++) {
      const length = keyLength[index]!;
      if (length < 0) continue;
      if (!this.map.putAt(data, keyStart[index]!, length, baseOffset + offsetDelta[index]!)) return false;
    }
    return true;
  }
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
