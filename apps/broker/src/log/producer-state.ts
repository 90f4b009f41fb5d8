import { ErrorCode } from '@weir/protocol';

/**
 * Per-partition producer state for idempotence and transactions, as Kafka's ProducerStateManager
 * keeps it. For each producer id that wrote to this partition it remembers the epoch, the sequence
 * ranges and offsets of the last five batches (so a retried batch is answered with its original
 * offsets instead of being written twice) and the first offset of the producer's open transaction
 * (so the last stable offset can be computed). The log feeds it every appended batch in offset
 * order, snapshots it now and then (producer-snapshot.ts) and, after a restart or a truncation,
 * reloads the newest snapshot and replays the batch headers that follow it.
 */

/** The largest producer sequence; the next sequence after it is 0 (Kafka wraps at int32 max). */
export const MAX_SEQUENCE = 2147483647;
/** The epoch of an entry that has not seen one; any first sequence is accepted after it. */
export const NO_PRODUCER_EPOCH = -1;
/** The coordinator epoch of an entry that has not seen a transaction marker. */
export const NO_COORDINATOR_EPOCH = -1;
/** The `currentTransactionFirstOffset` of a producer without an open transaction. */
export const NO_OPEN_TRANSACTION = -1;
/** How many recent batches are kept per producer: a client has at most five requests in flight. */
export const RETAINED_BATCHES_PER_PRODUCER = 5;
/** Kafka's default producer.id.expiration.ms: one day. */
export const DEFAULT_PRODUCER_ID_EXPIRATION_MS = 86_400_000;

const MIN_INT16 = -32768;
const MAX_INT16 = 32767;

/** Where one appended batch of an idempotent producer landed in the log. */
export interface ProducerBatchMetadata {
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
  /** The batch's max timestamp. */
  readonly timestampMs: number;
}

/** What the partition knows about one producer id. */
export interface ProducerEntry {
  readonly producerId: number;
  /** The newest epoch seen, or {@link NO_PRODUCER_EPOCH}. */
  readonly producerEpoch: number;
  /** The last batches of the current epoch, oldest first, at most {@link RETAINED_BATCHES_PER_PRODUCER}. */
  readonly batches: readonly ProducerBatchMetadata[];
  /** The timestamp of the producer's latest batch or marker; expiry is measured from it. */
  readonly lastTimestampMs: number;
  /** The coordinator epoch of the latest transaction marker, or {@link NO_COORDINATOR_EPOCH}. */
  readonly coordinatorEpoch: number;
  /** The first offset of the producer's open transaction, or {@link NO_OPEN_TRANSACTION}. */
  readonly currentTransactionFirstOffset: number;
}

/** The verdict on a produced batch, before it is appended. */
export type SequenceCheck =
  /** The batch is the next one expected (or the first one seen): append it. */
  | { readonly kind: 'append' }
  /** The batch is a retry of a recent one: answer success with that batch's offsets, append nothing. */
  | { readonly kind: 'duplicate'; readonly batch: ProducerBatchMetadata }
  /** The batch must be refused with `errorCode`; `reason` is for logs. */
  | { readonly kind: 'rejected'; readonly errorCode: number; readonly reason: string };

/** A batch that was appended to the log, described by its header. */
export interface AppendedBatch {
  /** Negative for a non-idempotent batch, which the producer state ignores. */
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
  /** The batch's max timestamp. */
  readonly timestampMs: number;
  readonly isTransactional: boolean;
  /** Present for a control batch (a transaction marker). */
  readonly control?: { readonly type: 'commit' | 'abort'; readonly coordinatorEpoch: number };
}

/** A transaction closed by a marker: its data spans `firstOffset` up to the marker at `lastOffset`. */
export interface CompletedTransaction {
  readonly producerId: number;
  readonly firstOffset: number;
  /** The offset of the commit or abort marker. */
  readonly lastOffset: number;
  readonly aborted: boolean;
}

/** The whole state as of `mapEndOffset`, the form that snapshots store. */
export interface ProducerStateSnapshot {
  /** One past the last offset the state reflects. */
  readonly mapEndOffset: number;
  readonly entries: readonly ProducerEntry[];
}

/** Options of a {@link ProducerStateManager}. */
export interface ProducerStateManagerOptions {
  /** Called after a marker closes an open transaction (the aborted-transaction index listens). */
  readonly onTransactionCompleted?: (transaction: CompletedTransaction) => void;
}

/** The sequence after `sequence`, wrapping from {@link MAX_SEQUENCE} to 0. */
export function nextSequence(sequence: number): number {
  return sequence === MAX_SEQUENCE ? 0 : sequence + 1;
}

/** A batch's last sequence from its first sequence and lastOffsetDelta, wrapping as Kafka does. */
export function lastSequenceOf(firstSequence: number, lastOffsetDelta: number): number {
  return (firstSequence + lastOffsetDelta) % (MAX_SEQUENCE + 1);
}

function isSequence(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= MAX_SEQUENCE;
}

function isInt16(value: number): boolean {
  return Number.isInteger(value) && value >= MIN_INT16 && value <= MAX_INT16;
}

function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -2147483648 && value <= MAX_SEQUENCE;
}

function isOffset(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/**
 * Why `entry` cannot describe a log that ends before `mapEndOffset`, or undefined when it can.
 * Snapshot loading uses it to reject data that passed its checksum but still makes no sense.
 */
export function describeInvalidEntry(entry: ProducerEntry, mapEndOffset: number): string | undefined {
  const id = entry.producerId;
  if (!isOffset(id)) return `producer id ${id} is not a non-negative safe integer`;
  if (!isInt16(entry.producerEpoch) || entry.producerEpoch < NO_PRODUCER_EPOCH) {
    return `producer ${id} has epoch ${entry.producerEpoch}`;
  }
  if (!Number.isSafeInteger(entry.lastTimestampMs)) return `producer ${id} has a bad last timestamp`;
  if (!isInt32(entry.coordinatorEpoch))
    return `producer ${id} has coordinator epoch ${entry.coordinatorEpoch}`;
  const transactionOffset = entry.currentTransactionFirstOffset;
  if (
    transactionOffset !== NO_OPEN_TRANSACTION &&
    !(isOffset(transactionOffset) && transactionOffset < mapEndOffset)
  ) {
    return `producer ${id} has transaction first offset ${transactionOffset} outside [0, ${mapEndOffset})`;
  }
  if (entry.batches.length > RETAINED_BATCHES_PER_PRODUCER) {
    return `producer ${id} has ${entry.batches.length} batches`;
  }
  let previousLastOffset = -1;
  for (const batch of entry.batches) {
    if (!isSequence(batch.firstSequence) || !isSequence(batch.lastSequence)) {
      return `producer ${id} has a batch with sequences ${batch.firstSequence}..${batch.lastSequence}`;
    }
    const offsetsInOrder =
      isOffset(batch.firstOffset) &&
      isOffset(batch.lastOffset) &&
      batch.firstOffset > previousLastOffset &&
      batch.lastOffset >= batch.firstOffset &&
      batch.lastOffset < mapEndOffset;
    if (!offsetsInOrder) {
      return `producer ${id} has a batch at offsets ${batch.firstOffset}..${batch.lastOffset} out of order`;
    }
    if (!Number.isSafeInteger(batch.timestampMs)) return `producer ${id} has a batch with a bad timestamp`;
    previousLastOffset = batch.lastOffset;
  }
  return undefined;
}

interface MutableEntry {
  producerId: number;
  producerEpoch: number;
  batches: ProducerBatchMetadata[];
  lastTimestampMs: number;
  coordinatorEpoch: number;
  currentTransactionFirstOffset: number;
}

function copyEntry(entry: ProducerEntry): MutableEntry {
  return { ...entry, batches: entry.batches.map((batch) => ({ ...batch })) };
}

function rejected(errorCode: number, reason: string): SequenceCheck {
  return { kind: 'rejected', errorCode, reason };
}

const NO_ENTRIES: ReadonlyMap<number, MutableEntry> = new Map();

/** The producer state of one partition. Not safe for concurrent appends: the log serializes them. */
export class ProducerStateManager {
  /**
   * Created with the first producer: most partitions of a broker with thousands never see an
   * idempotent producer, and an empty Map still costs a few hundred bytes.
   */
  #entries: Map<number, MutableEntry> | undefined;
  readonly #onTransactionCompleted: ((transaction: CompletedTransaction) => void) | undefined;
  #mapEndOffset = 0;

  constructor(options: ProducerStateManagerOptions = {}) {
    this.#onTransactionCompleted = options.onTransactionCompleted;
  }

  /** One past the last offset applied: the state reflects the log up to here. */
  get mapEndOffset(): number {
    return this.#mapEndOffset;
  }

  /** How many producers are tracked. */
  get producerCount(): number {
    return this.#entries?.size ?? 0;
  }

  /** A copy of one producer's entry. */
  entry(producerId: number): ProducerEntry | undefined {
    const entry = this.#entries?.get(producerId);
    return entry === undefined ? undefined : copyEntry(entry);
  }

  /**
   * One producer's epochs and open transaction, without copying its entry: the append path asks
   * for every transactional or control batch. Undefined for a producer this partition does not know.
   */
  transactionView(
    producerId: number,
  ): Pick<ProducerEntry, 'producerEpoch' | 'coordinatorEpoch' | 'currentTransactionFirstOffset'> | undefined {
    return this.#entries?.get(producerId);
  }

  /**
   * Decides whether a produced batch may be appended. It changes nothing: call
   * {@link recordBatch} once the batch is in the log. A non-idempotent batch (producerId < 0)
   * is always appended.
   */
  check(
    producerId: number,
    producerEpoch: number,
    firstSequence: number,
    lastSequence: number,
  ): SequenceCheck {
    if (!Number.isSafeInteger(producerId) || !isInt16(producerEpoch)) {
      throw new RangeError(
        `check: producer id ${producerId} or epoch ${producerEpoch} is not an integer in range`,
      );
    }
    if (!Number.isInteger(firstSequence) || !Number.isInteger(lastSequence)) {
      throw new RangeError(`check: sequences ${firstSequence}..${lastSequence} are not integers`);
    }
    if (producerId < 0) return { kind: 'append' };
    // The sequences come from the client's batch header, so a bad value is a refusal, not a bug.
    if (!isSequence(firstSequence) || !isSequence(lastSequence)) {
      return rejected(
        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
        `sequences ${firstSequence}..${lastSequence} are not valid`,
      );
    }
    const entry = this.#entries?.get(producerId);
    // Kafka accepts any first sequence from a producer it does not know: the producer may have
    // expired here while still running, or this may be the first batch after a restart.
    if (entry === undefined) return { kind: 'append' };
    if (producerEpoch < entry.producerEpoch) {
      return rejected(
        ErrorCode.INVALID_PRODUCER_EPOCH,
        `epoch ${producerEpoch} of producer ${producerId} is older than the current ${entry.producerEpoch}`,
      );
    }
    if (producerEpoch > entry.producerEpoch) {
      // A new epoch starts its sequences again at 0, and the old epoch's batches cannot be retried.
      if (firstSequence === 0 || entry.producerEpoch === NO_PRODUCER_EPOCH) return { kind: 'append' };
      return rejected(
        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
        `first sequence ${firstSequence} of new epoch ${producerEpoch} of producer ${producerId} is not 0`,
      );
    }
    const duplicate = entry.batches.find(
      (batch) => batch.firstSequence === firstSequence && batch.lastSequence === lastSequence,
    );
    if (duplicate !== undefined) return { kind: 'duplicate', batch: { ...duplicate } };
    // With no batch yet in this epoch the last sequence is "-1", so the next expected one is 0.
    const lastBatch = entry.batches.at(-1);
    const expected = lastBatch === undefined ? 0 : nextSequence(lastBatch.lastSequence);
    if (firstSequence === expected) return { kind: 'append' };
    return rejected(
      ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
      `producer ${producerId} epoch ${producerEpoch} sent sequence ${firstSequence}, expected ${expected}`,
    );
  }

  /**
   * Applies a batch that is now in the log, in offset order. Returns the transaction a marker
   * closed (also passed to the callback). Throws when the batch cannot follow the current state,
   * such as offsets going backwards or an older epoch: that is a bug in the caller, not bad input.
   */
  recordBatch(batch: AppendedBatch): CompletedTransaction | undefined {
    this.#assertAppendable(batch);
    this.#mapEndOffset = batch.lastOffset + 1;
    if (batch.producerId < 0) return undefined;
    const entry = this.#entryForEpoch(batch.producerId, batch.producerEpoch);
    entry.lastTimestampMs = batch.timestampMs;
    if (batch.control !== undefined) return this.#applyMarker(entry, batch, batch.control);
    entry.batches.push({
      firstSequence: batch.firstSequence,
      lastSequence: batch.lastSequence,
      firstOffset: batch.firstOffset,
      lastOffset: batch.lastOffset,
      timestampMs: batch.timestampMs,
    });
    if (entry.batches.length > RETAINED_BATCHES_PER_PRODUCER) entry.batches.shift();
    // Kafka refuses a non-transactional batch while the producer's transaction is open
    // (INVALID_TXN_STATE); that check belongs before the append, so here such a batch just
    // leaves the transaction open.
    if (batch.isTransactional && entry.currentTransactionFirstOffset === NO_OPEN_TRANSACTION) {
      entry.currentTransactionFirstOffset = batch.firstOffset;
    }
    return undefined;
  }

  /**
   * Moves `mapEndOffset` forward over offsets that hold no batch for this state, such as the
   * start of a log whose first segment begins above 0.
   */
  advanceMapEndOffset(offset: number): void {
    if (!isOffset(offset) || offset < this.#mapEndOffset) {
      throw new RangeError(
        `advanceMapEndOffset: ${offset} is below the map end offset ${this.#mapEndOffset}`,
      );
    }
    this.#mapEndOffset = offset;
  }

  /** The smallest first offset of an open transaction, or undefined when none is open. */
  firstUnstableOffset(): number | undefined {
    let smallest: number | undefined;
    for (const entry of this.#known.values()) {
      const offset = entry.currentTransactionFirstOffset;
      if (offset !== NO_OPEN_TRANSACTION && (smallest === undefined || offset < smallest)) smallest = offset;
    }
    return smallest;
  }

  /**
   * Forgets producers without an open transaction whose last batch is at least
   * `producerIdExpirationMs` old (Kafka's producer.id.expiration.ms), and returns their ids.
   */
  removeExpiredProducers(nowMs: number, producerIdExpirationMs: number): number[] {
    const removed: number[] = [];
    for (const [producerId, entry] of this.#known) {
      const idle = entry.currentTransactionFirstOffset === NO_OPEN_TRANSACTION;
      if (idle && nowMs - entry.lastTimestampMs >= producerIdExpirationMs) {
        this.#entries?.delete(producerId);
        removed.push(producerId);
      }
    }
    return removed;
  }

  /** Forgets every producer; the state then describes an empty log ending at `mapEndOffset`. */
  clear(mapEndOffset = 0): void {
    if (!isOffset(mapEndOffset)) throw new RangeError(`clear: bad map end offset ${mapEndOffset}`);
    this.#entries = undefined;
    this.#mapEndOffset = mapEndOffset;
  }

  /** A copy of the whole state, producers sorted by id so equal states encode to equal bytes. */
  snapshot(): ProducerStateSnapshot {
    const entries = [...this.#known.values()]
      .sort((left, right) => left.producerId - right.producerId)
      .map((entry) => copyEntry(entry));
    return { mapEndOffset: this.#mapEndOffset, entries };
  }

  /** Replaces the whole state. Throws on an entry that cannot describe the log below `mapEndOffset`. */
  loadSnapshot(snapshot: ProducerStateSnapshot): void {
    if (!isOffset(snapshot.mapEndOffset)) {
      throw new RangeError(`loadSnapshot: bad map end offset ${snapshot.mapEndOffset}`);
    }
    const loaded = new Map<number, MutableEntry>();
    for (const entry of snapshot.entries) {
      const problem = describeInvalidEntry(entry, snapshot.mapEndOffset);
      if (problem !== undefined) throw new RangeError(`loadSnapshot: ${problem}`);
      if (loaded.has(entry.producerId))
        throw new RangeError(`loadSnapshot: producer ${entry.producerId} twice`);
      loaded.set(entry.producerId, copyEntry(entry));
    }
    this.#entries = loaded.size > 0 ? loaded : undefined;
    this.#mapEndOffset = snapshot.mapEndOffset;
  }

  /** The producers tracked, read-only; an empty map until the first one. */
  get #known(): ReadonlyMap<number, MutableEntry> {
    return this.#entries ?? NO_ENTRIES;
  }

  #assertAppendable(batch: AppendedBatch): void {
    const { firstOffset, lastOffset } = batch;
    if (!isOffset(firstOffset) || !isOffset(lastOffset) || lastOffset < firstOffset) {
      throw new RangeError(`recordBatch: bad offsets ${firstOffset}..${lastOffset}`);
    }
    if (firstOffset < this.#mapEndOffset) {
      throw new RangeError(
        `recordBatch: offset ${firstOffset} goes back below the map end offset ${this.#mapEndOffset}`,
      );
    }
    if (batch.producerId < 0) return;
    if (!Number.isSafeInteger(batch.producerId) || !isInt16(batch.producerEpoch)) {
      throw new RangeError(
        `recordBatch: bad producer id ${batch.producerId} or epoch ${batch.producerEpoch}`,
      );
    }
    if (!Number.isSafeInteger(batch.timestampMs)) throw new RangeError(`recordBatch: bad timestamp`);
    const entry = this.#entries?.get(batch.producerId);
    if (entry !== undefined && batch.producerEpoch < entry.producerEpoch) {
      throw new RangeError(
        `recordBatch: epoch ${batch.producerEpoch} of producer ${batch.producerId} is older than ${entry.producerEpoch}`,
      );
    }
    if (batch.control !== undefined) {
      if (!isInt32(batch.control.coordinatorEpoch))
        throw new RangeError('recordBatch: bad coordinator epoch');
      // Kafka fences a marker from an older coordinator; one that got into the log is a bug upstream.
      if (entry !== undefined && batch.control.coordinatorEpoch < entry.coordinatorEpoch) {
        throw new RangeError(
          `recordBatch: coordinator epoch ${batch.control.coordinatorEpoch} is older than ${entry.coordinatorEpoch}`,
        );
      }
    } else if (!isSequence(batch.firstSequence) || !isSequence(batch.lastSequence)) {
      throw new RangeError(`recordBatch: bad sequences ${batch.firstSequence}..${batch.lastSequence}`);
    }
  }

  /** The producer's entry, created if new, and reset if `producerEpoch` is newer than its epoch. */
  #entryForEpoch(producerId: number, producerEpoch: number): MutableEntry {
    let entry = this.#entries?.get(producerId);
    if (entry === undefined) {
      entry = {
        producerId,
        producerEpoch,
        batches: [],
        lastTimestampMs: 0,
        coordinatorEpoch: NO_COORDINATOR_EPOCH,
        currentTransactionFirstOffset: NO_OPEN_TRANSACTION,
      };
      this.#entries ??= new Map();
      this.#entries.set(producerId, entry);
    } else if (producerEpoch > entry.producerEpoch) {
      // The old epoch's sequences mean nothing to the new one, which starts again at 0. An open
      // transaction stays open: only a marker closes it.
      entry.producerEpoch = producerEpoch;
      entry.batches = [];
    }
    return entry;
  }

  #applyMarker(
    entry: MutableEntry,
    batch: AppendedBatch,
    control: NonNullable<AppendedBatch['control']>,
  ): CompletedTransaction | undefined {
    entry.coordinatorEpoch = control.coordinatorEpoch;
    const firstOffset = entry.currentTransactionFirstOffset;
    // The coordinator writes markers to every partition of the transaction, including ones the
    // producer wrote nothing to; such a marker closes no transaction here.
    if (firstOffset === NO_OPEN_TRANSACTION) return undefined;
    entry.currentTransactionFirstOffset = NO_OPEN_TRANSACTION;
    const completed: CompletedTransaction = {
      producerId: entry.producerId,
      firstOffset,
      lastOffset: batch.lastOffset,
      aborted: control.type === 'abort',
    };
    this.#onTransactionCompleted?.(completed);
    return completed;
  }
}
