import { decodeRecordBatch, encodeRecordBatch, isControlBatch, iterateBatches } from '@weir/protocol';
import type { ReplicaManager } from '../replica/replica-manager';

/** How many bytes of records one batch carries at most; larger writes are split. */
const MAX_BATCH_PAYLOAD_BYTES = 4 * 1024 * 1024;
const READ_CHUNK_BYTES = 1024 * 1024;

/** How a coordinator's records become keyed records of its internal topic, and back. */
export interface InternalRecordCodec<R> {
  encode(record: R): { key: Buffer; value: Buffer | null };
  /**
   * Undefined for a record this broker does not know (a foreign or newer writer); throws for bytes
   * that do not match their declared layout. Either way the record is counted and skipped.
   */
  decode(key: Buffer, value: Buffer | null): R | undefined;
  /**
   * Whether a record this codec reads is in a layout it no longer writes, so the coordinator can
   * rewrite its state once in the current one (see ReplayReport.outdated). Absent: never.
   */
  isOutdated?(key: Buffer, value: Buffer | null): boolean;
}

/** The replica layer's doors for a coordinator: writes and reads at the epoch it leads at. */
export type CoordinatorLogAccess = Pick<
  ReplicaManager,
  'appendAsCoordinator' | 'readAsCoordinator' | 'coordinatorRange'
>;

export interface ReplayReport {
  records: number;
  /** Records whose key or value this broker cannot read (foreign or newer writers); skipped. */
  skipped: number;
  /**
   * Keys whose latest record is in a layout this broker no longer writes (applied like any other);
   * once a coordinator has rewritten its state, older outdated records no longer count.
   */
  outdated: number;
}

/**
 * The record traffic of a coordinator's internal topic (`__consumer_offsets`,
 * `__transaction_state`): appending a coordinator's records to one partition, waiting for the
 * appends in flight at shutdown, and replaying a partition at start. Creating the topic stays with
 * each coordinator's store, since they differ in when (at start, or on first use) and with which
 * configs.
 */
export class InternalTopicRecords<R> {
  /** Appends not yet finished, so shutdown can wait for them before the logs close. */
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly logs: CoordinatorLogAccess,
    private readonly topic: string,
    private readonly codec: InternalRecordCodec<R>,
    private readonly clock: { nowMs(): number },
  ) {}

  /**
   * Appends records to a partition, as long as this broker leads it at `leaderEpoch` (the epoch
   * the coordinator's shard loaded at); with `durable`, resolves once they are fdatasync'd. A write
   * larger than one batch is split, and every batch is handed to the replica layer before any
   * await, so the log keeps them in call order.
   */
  async write(
    partition: number,
    leaderEpoch: number,
    records: readonly R[],
    options: { durable: boolean },
  ): Promise<void> {
    if (records.length === 0) return;
    const timestampMs = this.clock.nowMs();
    const appends: Promise<unknown>[] = [];
    let batch: { key: Buffer; value: Buffer | null; timestampMs: number }[] = [];
    let batchBytes = 0;
    const flush = () => {
      appends.push(
        this.logs.appendAsCoordinator(this.topic, partition, encodeRecordBatch({ records: batch }), {
          leaderEpoch,
          durable: options.durable,
        }),
      );
      batch = [];
      batchBytes = 0;
    };
    for (const record of records) {
      const encoded = this.codec.encode(record);
      const size = encoded.key.length + (encoded.value?.length ?? 0);
      if (batch.length > 0 && batchBytes + size > MAX_BATCH_PAYLOAD_BYTES) flush();
      batch.push({ ...encoded, timestampMs });
      batchBytes += size;
    }
    flush();
    const written = Promise.all(appends);
    const tracked: Promise<unknown> = written.then(
      () => this.#inFlight.delete(tracked),
      () => this.#inFlight.delete(tracked),
    );
    this.#inFlight.add(tracked);
    await written;
  }

  /** Resolves once every append started so far has finished (successfully or not). */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Reads a partition from its log start to its high watermark as of the start of the replay, as
   * its leader at `leaderEpoch`, and hands every record to `onRecord` in log order. Unreadable
   * records are counted and skipped; a log that cannot be read at all, or leadership lost during
   * the replay, throws (the caller marks the shard failed or drops it).
   */
  async replay(partition: number, leaderEpoch: number, onRecord: (record: R) => void): Promise<ReplayReport> {
    const { start, end: endOffset } = await this.logs.coordinatorRange(this.topic, partition, leaderEpoch);
    let offset = start;
    const report: ReplayReport = { records: 0, skipped: 0, outdated: 0 };
    // Keys (as latin1 strings) whose latest record so far is outdated.
    const outdatedKeys = new Set<string>();
    while (offset < endOffset) {
      const { read } = await this.logs.readAsCoordinator(this.topic, partition, offset, {
        leaderEpoch,
        maxBytes: READ_CHUNK_BYTES,
        maxOffset: endOffset,
      });
      const { records } = read;
      if (records.length === 0) break;
      const before = offset;
      for (const item of iterateBatches(records)) {
        if (item.kind !== 'batch') {
          throw new Error(`${this.topic}-${partition}: unreadable batch at offset ${offset}`);
        }
        const decoded = decodeRecordBatch(item.bytes);
        if (!decoded.ok) throw decoded.error;
        const batch = decoded.value;
        const nextOffset = Number(batch.baseOffset) + batch.lastOffsetDelta + 1;
        if (!isControlBatch(batch.attributes)) {
          for (const record of batch.records) {
            if (Number(record.offset) < offset) continue;
            const applied = this.#decodeOne(record.key, record.value);
            if (applied === undefined) {
              report.skipped += 1;
            } else {
              report.records += 1;
              // Only a directory with outdated records pays for the key strings: a current record
              // can only clear a key the set already holds.
              if (this.codec.isOutdated?.(record.key!, record.value)) {
                outdatedKeys.add(record.key!.toString('latin1'));
              } else if (outdatedKeys.size > 0) {
                outdatedKeys.delete(record.key!.toString('latin1'));
              }
              onRecord(applied);
            }
          }
        }
        offset = Math.max(offset, nextOffset);
      }
      // A read always returns the batch containing `offset`, so no progress means a broken log.
      if (offset === before) throw new Error(`${this.topic}-${partition}: no progress at offset ${offset}`);
    }
    report.outdated = outdatedKeys.size;
    return report;
  }

  #decodeOne(key: Buffer | null, value: Buffer | null): R | undefined {
    if (key === null) return undefined;
    try {
      return this.codec.decode(key, value);
    } catch {
      return undefined;
    }
  }
}
