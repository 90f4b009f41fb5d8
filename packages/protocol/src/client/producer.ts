import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { Produce } from '../messages/apis/produce';
import type { CompressionType } from '../records/batch-attributes';
import { COMPRESSION_TYPES } from '../records/batch-attributes';
import type { RecordHeaderInput } from '../records/record';
import type { RequestOf, ResponseOf } from '../schema/api';
import { ByteBudget } from './byte-budget';
import type { Client } from './client';
import { ClosedError } from './closed-error';
import { needsMetadataRefresh } from './cluster-metadata';
import type { Connection } from './connection';
import { DrainTimer } from './drain-timer';
import { type ProducerMessage, type ProducerRecord, type RecordMetadata, toBuffer } from './message';
import { PartitionQueue } from './partition-queue';
import { partitionForKey, StickyPartitioner } from './partitioner';
import {
  estimateRecordBytes,
  incrementSequence,
  type PendingRecord,
  ProducerBatch,
  type ProducerIdentity,
  SendTracker,
} from './producer-batch';
import { ProducerIdentitySource } from './producer-identity';
import type { ProducerOptions, ProducerTestHooks } from './producer-options';
import type { ProducerTransactionGate } from './transaction/transaction-gate';

/** Header lists of records without headers share this one (it is never written to). */
const NO_HEADERS: readonly RecordHeaderInput[] = Object.freeze([]);

/** Kafka keeps the last five batches per producer and partition for deduplication. */
const MAX_IDEMPOTENT_IN_FLIGHT = 5;
/**
 * A batch closes at this estimated size (an upper bound of the encoded size), so a full batch still
 * fits Kafka's default max.message.bytes of 1 MiB + 12. Batches only get this large under load:
 * with lingerMs 0 a batch leaves at the end of its event-loop turn unless its partition is busy.
 * Large batches are what make high throughput cheap, for the producer and for the broker alike.
 */
const DEFAULT_BATCH_BYTES = 1024 * 1024;
/** Room beyond batchBytes a new batch's buffer gets: the record that fills a batch may pass it. */
const BATCH_SLACK_BYTES = 1024;

/**
 * Sends records to topics. Records are grouped per partition into batches, which are sent to the
 * partition's leader, several partitions per request; `send` resolves with each record's offset
 * once its batch is stored. Keyed records are placed with murmur2 (the same partition the Java
 * client and kafkajs choose), keyless ones stick to one partition until its batch is sent.
 *
 * Retriable failures are retried with the client's backoff and bounds, in order per partition.
 * With idempotence (the default) a retry cannot store a record twice: batches carry a producer id
 * and sequence numbers, and the broker answers a repeated batch with its original offset.
 *
 * The producer does not own the client: close the producer (which flushes), then the client.
 */
export class Producer {
  readonly #client: Client;
  readonly #acks: -1 | 0 | 1;
  readonly #idempotent: boolean;
  readonly #compression: CompressionType;
  readonly #lingerMs: number;
  readonly #batchBytes: number;
  readonly #maxRequestBytes: number;
  readonly #maxInFlight: number;
  readonly #hooks: ProducerTestHooks | undefined;
  readonly #budget: ByteBudget;
  readonly #sticky: StickyPartitioner;
  readonly #queues = new Map<string, PartitionQueue>();
  /** The same queues by topic and partition number, so a record finds its queue without a string key. */
  readonly #queuesByTopic = new Map<string, (PartitionQueue | undefined)[]>();
  readonly #outstanding = new Set<SendTracker>();
  readonly #refreshingTopics = new Set<string>();
  readonly #connectingNodes = new Set<number>();
  #appendChain: Promise<void> = Promise.resolve();
  readonly #drainTimer = new DrainTimer(() => this.#drain());
  readonly #identities: ProducerIdentitySource;
  /** Set for a transactional producer: identity and partition admission come from the transaction. */
  readonly #gate: ProducerTransactionGate | undefined;
  #nextSerial = 0;
  /** Wakes the drain when the client closes, so waiting batches fail instead of lingering on. */
  readonly #onClientClosed = () => this.#scheduleDrain(0);
  #closeOpenBatches = false;
  #closing: Promise<void> | undefined;

  /**
   * @param gate only for {@link TransactionalProducer}, which builds its producer with it; leave
   *   it out otherwise.
   */
  constructor(client: Client, options: ProducerOptions = {}, gate?: ProducerTransactionGate) {
    this.#client = client;
    this.#gate = gate;
    this.#acks = options.acks ?? -1;
    if (this.#acks !== -1 && this.#acks !== 0 && this.#acks !== 1) {
      throw new RangeError(`acks must be -1, 0 or 1, got ${this.#acks}`);
    }
    this.#idempotent = options.idempotent ?? this.#acks === -1;
    if (this.#idempotent && this.#acks !== -1) {
      throw new RangeError(`an idempotent producer needs acks=-1, got acks=${this.#acks}`);
    }
    this.#compression = options.compression ?? 'none';
    if (!COMPRESSION_TYPES.includes(this.#compression)) {
      throw new RangeError(`unknown compression "${this.#compression}"`);
    }
    this.#lingerMs = atLeast('lingerMs', options.lingerMs ?? 0, 0);
    this.#batchBytes = atLeast('batchBytes', options.batchBytes ?? DEFAULT_BATCH_BYTES, 1);
    this.#maxRequestBytes = atLeast('maxRequestBytes', options.maxRequestBytes ?? 1024 * 1024, 1);
    this.#maxInFlight = atLeast('maxInFlightPerPartition', options.maxInFlightPerPartition ?? 5, 1);
    if (this.#maxInFlight > MAX_IDEMPOTENT_IN_FLIGHT && this.#idempotent) {
      throw new RangeError(`an idempotent producer allows at most 5 batches in flight per partition`);
    }
    this.#budget = new ByteBudget(atLeast('bufferBytes', options.bufferBytes ?? 32 * 1024 * 1024, 1));
    this.#hooks = options.testHooks;
    this.#sticky = new StickyPartitioner(client.random);
    this.#identities = new ProducerIdentitySource(client, (error) => {
      // Without a producer id nothing can be sent: fail what waits for one; the next send asks again.
      if (error !== undefined) this.#failUnsent(error);
      this.#scheduleDrain(0);
    });
    client.signal.addEventListener('abort', this.#onClientClosed, { once: true });
    if (gate !== undefined) {
      if (!this.#idempotent) throw new RangeError('a transactional producer is idempotent (acks=-1)');
      gate.bind({ wake: () => this.#scheduleDrain(0), failUnsent: (error) => this.#failUnsent(error) });
    }
  }

  /** Record bytes accepted and not yet stored or failed. */
  get bufferedBytes(): number {
    return this.#budget.usedBytes;
  }

  /**
   * Queues records for one topic and resolves with where each was stored, in input order. Waits
   * while the buffer is full. Rejects with the first failure among its records (a
   * {@link WeirError}); records of the same call in other batches may still have been stored.
   */
  send(record: ProducerRecord): Promise<RecordMetadata[]> {
    if (this.#closing !== undefined) return Promise.reject(new ClosedError('the producer'));
    let tracker: SendTracker;
    let records: PendingRecord[];
    let totalBytes = 0;
    try {
      if (typeof record.topic !== 'string' || record.topic.length === 0) {
        throw new RangeError('send needs a topic name');
      }
      tracker = new SendTracker(record.messages.length);
      records = this.#check(record.messages, tracker);
      for (let index = 0; index < records.length; index++) totalBytes += records[index]!.sizeBytes;
    } catch (error) {
      return Promise.reject(error);
    }
    if (records.length === 0) return tracker.promise;
    this.#outstanding.add(tracker);
    const forget = () => this.#outstanding.delete(tracker);
    tracker.promise.then(forget, forget);
    // One chain keeps sends in call order even when one waits for metadata or buffer space.
    this.#appendChain = this.#appendChain
      .then(() => this.#append(record.topic, records, totalBytes, tracker))
      .catch((error: unknown) => tracker.fail(error));
    return tracker.promise;
  }

  /**
   * Sends everything queued so far without waiting for `lingerMs`, and resolves once every `send`
   * made before this call has settled. Failures stay with their `send` promises.
   */
  async flush(): Promise<void> {
    const settled = [...this.#outstanding].map((tracker) => tracker.promise.then(noop, noop));
    await this.#appendChain;
    this.#closeOpenBatches = true;
    this.#scheduleDrain(0);
    await Promise.all(settled);
  }

  /** Refuses new sends, flushes, and stops. Idempotent. The client stays open. */
  close(): Promise<void> {
    this.#closing ??= this.flush().finally(() => {
      this.#drainTimer.stop();
      this.#client.signal.removeEventListener('abort', this.#onClientClosed);
    });
    return this.#closing;
  }

  /** Checks and converts every message before any is queued, so a bad one fails the whole send. */
  #check(messages: readonly ProducerMessage[], tracker: SendTracker): PendingRecord[] {
    const nowMs = Date.now();
    const records: PendingRecord[] = new Array(messages.length);
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      const key = toBuffer(message.key);
      const value = toBuffer(message.value);
      const given = message.headers;
      const headers =
        given === undefined || given.length === 0
          ? NO_HEADERS
          : given.map((header) => ({ key: header.key, value: toBuffer(header.value) }));
      const partition = message.partition;
      if (partition !== undefined && (!Number.isInteger(partition) || partition < 0)) {
        throw new RangeError(`message ${index}: partition must be a non-negative integer, got ${partition}`);
      }
      const timestampMs = message.timestampMs ?? nowMs;
      if (!Number.isSafeInteger(timestampMs)) {
        throw new RangeError(`message ${index}: timestampMs must be an integer, got ${timestampMs}`);
      }
      const sizeBytes = estimateRecordBytes(key, value, headers);
      if (sizeBytes > this.#budget.capacityBytes) {
        throw new WeirError(ErrorCode.MESSAGE_TOO_LARGE, {
          detail: `message ${index} takes about ${sizeBytes} bytes, more than bufferBytes (${this.#budget.capacityBytes}).`,
        });
      }
      records[index] = { key, value, headers, partition, timestampMs, sizeBytes, tracker, index };
    }
    return records;
  }

  async #append(
    topic: string,
    records: readonly PendingRecord[],
    totalBytes: number,
    tracker: SendTracker,
  ): Promise<void> {
    const metadata = await this.#client.topic(topic);
    const partitionCount = metadata.partitions.length;
    const outside = records.find(
      (record) => record.partition !== undefined && record.partition >= partitionCount,
    );
    if (outside !== undefined) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `topic "${topic}" has ${partitionCount} partitions, so partition ${outside.partition} does not exist.`,
      });
    }
    let available: number[] | undefined;
    const queues = this.#topicQueues(topic);
    // Usually the whole send fits the buffer: take its bytes at once instead of record by record.
    let prepaidBytes =
      totalBytes <= this.#budget.capacityBytes && this.#budget.tryAcquire(totalBytes) ? totalBytes : 0;
    try {
      for (let index = 0; index < records.length; index++) {
        if (tracker.settled) return;
        const record = records[index]!;
        if (prepaidBytes > 0) {
          prepaidBytes -= record.sizeBytes;
        } else if (!this.#budget.tryAcquire(record.sizeBytes)) {
          // Full: get what is open on its way so the space comes back, then wait for it in turn.
          this.#closeOpenBatches = true;
          this.#scheduleDrain(0);
          await this.#budget.acquire(record.sizeBytes);
        }
        let partition = record.partition;
        if (partition === undefined) {
          if (record.key !== null) partition = partitionForKey(record.key, partitionCount);
          else {
            available ??= metadata.partitions.filter((p) => p.leaderId >= 0).map((p) => p.partition);
            partition = this.#sticky.partition(topic, partitionCount, available);
          }
        }
        const queue = queues[partition] ?? this.#createQueue(topic, partition);
        try {
          this.#enqueue(queue, record);
        } catch (error) {
          // Not queued, so its bytes are not released with a batch.
          this.#budget.release(record.sizeBytes);
          throw error;
        }
      }
    } finally {
      // Bytes taken for records that were never queued (the send failed part-way).
      if (prepaidBytes > 0) this.#budget.release(prepaidBytes);
    }
  }

  #enqueue(queue: PartitionQueue, record: PendingRecord): void {
    let batch = queue.open;
    if (batch?.wouldOverflow(record.sizeBytes, this.#batchBytes)) {
      this.#closeOpen(queue);
      batch = undefined;
    }
    if (batch === undefined) {
      // Sized like the partition's previous batch, so a busy partition's batches rarely grow.
      const capacityBytes = Math.min(queue.lastBatchBytes, this.#batchBytes + BATCH_SLACK_BYTES);
      batch = new ProducerBatch(queue.topic, queue.partition, this.#nextSerial++, Date.now(), capacityBytes);
      queue.open = batch;
      this.#scheduleDrain(this.#lingerMs);
    }
    batch.append(record);
    if (batch.sizeBytes >= this.#batchBytes) this.#closeOpen(queue);
  }

  /** The queues of a topic, indexed by partition (holes where none exists yet). */
  #topicQueues(topic: string): (PartitionQueue | undefined)[] {
    let queues = this.#queuesByTopic.get(topic);
    if (queues === undefined) {
      queues = [];
      this.#queuesByTopic.set(topic, queues);
    }
    return queues;
  }

  #queue(topic: string, partition: number): PartitionQueue {
    return this.#topicQueues(topic)[partition] ?? this.#createQueue(topic, partition);
  }

  #createQueue(topic: string, partition: number): PartitionQueue {
    const queue = new PartitionQueue(topic, partition);
    this.#queues.set(`${topic}\u0000${partition}`, queue);
    this.#topicQueues(topic)[partition] = queue;
    return queue;
  }

  #closeOpen(queue: PartitionQueue): void {
    const batch = queue.closeOpen();
    if (batch === undefined) return;
    queue.lastBatchBytes = batch.encodedLengthBytes;
    this.#sticky.onBatchClosed(queue.topic, queue.partition);
    this.#scheduleDrain(0);
  }

  #scheduleDrain(delayMs: number): void {
    this.#drainTimer.schedule(delayMs);
  }

  /**
   * Closes batches whose linger is over, fails batches past their delivery time, and sends what may
   * go. Each round takes at most one batch per partition, and rounds are written one after the
   * other on each connection, so a partition's batches reach the broker in order.
   */
  #drain(): void {
    if (this.#client.closed) {
      this.#failEverything(new ClosedError('the client'));
      return;
    }
    const nowMs = Date.now();
    let wakeAtMs = Number.POSITIVE_INFINITY;
    const closeAll = this.#closeOpenBatches;
    this.#closeOpenBatches = false;
    for (const queue of this.#queues.values()) {
      const open = queue.open;
      if (open !== undefined) {
        const dueAtMs = open.createdAtMs + this.#lingerMs;
        // A batch that could not leave now anyway stays open and keeps filling (up to batchBytes)
        // until the partition can send: under load batches grow by themselves, and the next drain,
        // which every answer triggers, closes it.
        if (closeAll || (dueAtMs <= nowMs && !queue.isBusy(this.#maxInFlight, nowMs))) this.#closeOpen(queue);
        else if (dueAtMs > nowMs) wakeAtMs = Math.min(wakeAtMs, dueAtMs);
        else if (queue.notBeforeMs > nowMs) wakeAtMs = Math.min(wakeAtMs, queue.notBeforeMs);
      }
      this.#expireUnsent(queue, nowMs);
    }
    for (let round = 0; round < this.#maxInFlight; round++) {
      const requests = new Map<Connection, ProducerBatch[][]>();
      for (const queue of this.#queues.values()) {
        const batch = queue.ready[0];
        if (batch === undefined || queue.recovering || queue.inFlight.length >= this.#maxInFlight) continue;
        if (queue.notBeforeMs > nowMs) {
          wakeAtMs = Math.min(wakeAtMs, queue.notBeforeMs);
          continue;
        }
        if (!batch.encoded && this.#gate !== undefined && !this.#gate.admit(queue.topic, queue.partition))
          continue;
        const connection = this.#connectionFor(queue, nowMs);
        if (connection === undefined || !this.#prepare(queue, batch)) continue;
        queue.markSent(batch);
        const perConnection = requests.get(connection) ?? [[]];
        requests.set(connection, perConnection);
        let current = perConnection.at(-1)!;
        if (current.length > 0 && requestBytes(current) + batch.bytes.length > this.#maxRequestBytes) {
          current = [];
          perConnection.push(current);
        }
        current.push(batch);
      }
      if (requests.size === 0) break;
      for (const [connection, batchLists] of requests) {
        for (const batches of batchLists) this.#sendRequest(connection, batches);
      }
    }
    if (wakeAtMs < Number.POSITIVE_INFINITY) this.#scheduleDrain(Math.max(0, wakeAtMs - nowMs));
  }

  /** The ready connection to the queue's leader; otherwise starts what is missing and returns undefined. */
  #connectionFor(queue: PartitionQueue, nowMs: number): Connection | undefined {
    const leaderId = this.#client.cachedTopic(queue.topic)?.partitions[queue.partition]?.leaderId;
    if (leaderId === undefined || leaderId < 0) {
      queue.notBeforeMs = nowMs + this.#client.retryPolicy.initialBackoffMs;
      this.#refreshTopic(queue.topic);
      return undefined;
    }
    const connection = this.#client.readyConnection(leaderId);
    if (connection === undefined) this.#connect(leaderId);
    return connection;
  }

  #connect(nodeId: number): void {
    if (this.#connectingNodes.has(nodeId)) return;
    this.#connectingNodes.add(nodeId);
    this.#client
      .connectionTo(nodeId)
      .then(noop, (error: unknown) => {
        const retryAtMs = Date.now() + this.#client.retryPolicy.initialBackoffMs;
        for (const queue of this.#queues.values()) {
          const leaderId = this.#client.cachedTopic(queue.topic)?.partitions[queue.partition]?.leaderId;
          if (leaderId !== nodeId) continue;
          queue.notBeforeMs = Math.max(queue.notBeforeMs, retryAtMs);
          if (queue.ready[0] !== undefined) queue.ready[0].lastError = error;
        }
        this.#client.invalidateMetadata();
      })
      .finally(() => {
        this.#connectingNodes.delete(nodeId);
        this.#scheduleDrain(0);
      });
  }

  #refreshTopic(topic: string): void {
    if (this.#refreshingTopics.has(topic)) return;
    this.#refreshingTopics.add(topic);
    this.#client
      .topic(topic, { refresh: true })
      .then(noop, (error: unknown) => {
        for (const queue of this.#queues.values()) {
          if (queue.topic === topic && queue.ready[0] !== undefined) queue.ready[0].lastError = error;
        }
      })
      .finally(() => {
        this.#refreshingTopics.delete(topic);
        this.#scheduleDrain(0);
      });
  }

  /**
   * Gives a batch its identity and sequence numbers and encodes it, unless it already is. Returns
   * false while an idempotent producer waits for a producer id.
   */
  #prepare(queue: PartitionQueue, batch: ProducerBatch): boolean {
    if (batch.encoded) return true;
    let identity: ProducerIdentity | undefined;
    if (this.#gate !== undefined) {
      if (!this.#adoptTransactionIdentity(queue)) return false;
      identity = queue.identity;
    } else if (this.#idempotent) {
      if (queue.identity === undefined) {
        const current = this.#identities.current;
        if (current === undefined || queue.retiredProducerIds.has(current.producerId)) {
          this.#identities.renew(current);
          return false;
        }
        queue.identity = current;
        queue.nextSequence = 0;
      }
      identity = queue.identity;
    }
    const baseSequence = queue.nextSequence;
    batch.encode(this.#compression, identity, baseSequence, this.#gate !== undefined);
    if (identity !== undefined) queue.nextSequence = incrementSequence(baseSequence, batch.recordCount);
    return true;
  }

  /**
   * A transactional producer's batches carry the transaction's identity. Sequences go on across
   * transactions of one epoch and start again at 0 under a new epoch. After a failed batch the gate
   * has no identity until the abort that must follow has bumped the epoch, so nothing is sent with
   * a sequence gap.
   */
  #adoptTransactionIdentity(queue: PartitionQueue): boolean {
    const current = this.#gate!.identity();
    if (current === undefined) return false;
    const held = queue.identity;
    if (held?.producerId === current.producerId && held.producerEpoch === current.producerEpoch) return true;
    queue.identity = current;
    queue.nextSequence = 0;
    return true;
  }

  #sendRequest(connection: Connection, batches: ProducerBatch[]): void {
    let body: RequestOf<typeof Produce>;
    try {
      const version = connection.versionFor(Produce);
      if (this.#compression === 'zstd' && version < 7) {
        throw new WeirError(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, {
          detail: `zstd needs Produce v7; ${connection.address} serves up to v${version}.`,
        });
      }
      body = {
        transactionalId: this.#gate?.transactionalId ?? null,
        acks: this.#acks,
        timeoutMs: this.#client.requestTimeoutMs,
        topicData: [],
      };
      const byTopic = new Map<string, RequestOf<typeof Produce>['topicData'][number]>();
      for (const batch of batches) {
        let topic = byTopic.get(batch.topic);
        if (topic === undefined) {
          topic = { name: batch.topic, partitionData: [] };
          byTopic.set(batch.topic, topic);
          body.topicData.push(topic);
        }
        topic.partitionData.push({ index: batch.partition, records: batch.bytes });
      }
    } catch (error) {
      // Nothing was written, so nothing can have been stored.
      for (const batch of batches) this.#onBatchFailed(batch, error, false);
      return;
    }
    if (this.#acks === 0) {
      connection.sendWithoutResponse(Produce, body).then(
        () => {
          for (const batch of batches) this.#onBatchStored(batch, -1n, -1n);
          this.#scheduleDrain(0);
        },
        (error: unknown) => this.#onRequestFailed(batches, error),
      );
      return;
    }
    connection.send(Produce, body).then(
      (response) => this.#onResponse(batches, response),
      (error: unknown) => this.#onRequestFailed(batches, error),
    );
  }

  #onResponse(batches: readonly ProducerBatch[], response: ResponseOf<typeof Produce>): void {
    for (const batch of batches) {
      const answer = response.responses
        .find((topic) => topic.name === batch.topic)
        ?.partitionResponses.find((partition) => partition.index === batch.partition);
      const verdict =
        this.#hooks?.interceptResponse?.({
          topic: batch.topic,
          partition: batch.partition,
          baseSequence: batch.baseSequence,
          attempt: batch.attempts,
        }) ?? 'deliver';
      if (verdict === 'lose') {
        const lost = new WeirError(ErrorCode.NETWORK_EXCEPTION, {
          detail: 'a test hook dropped the answer.',
        });
        this.#onBatchFailed(batch, lost, true);
      } else if (answer === undefined) {
        const missing = new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
          detail: `the Produce answer does not mention ${batch.topic}-${batch.partition}.`,
        });
        this.#onBatchFailed(batch, missing, true);
      } else if (answer.errorCode === ErrorCode.NONE) {
        this.#onBatchStored(batch, answer.baseOffset, answer.logAppendTimeMs);
      } else {
        const error = errorForCode(answer.errorCode, `Producing to ${batch.topic}-${batch.partition}.`);
        this.#onBatchFailed(batch, error, false);
      }
    }
    this.#scheduleDrain(0);
  }

  /** The request got no answer: whatever it carried may or may not have been stored. */
  #onRequestFailed(batches: readonly ProducerBatch[], error: unknown): void {
    for (const batch of batches) this.#onBatchFailed(batch, error, true);
    this.#scheduleDrain(0);
  }

  #onBatchStored(batch: ProducerBatch, baseOffset: bigint, logAppendTimeMs: bigint): void {
    const queue = this.#queue(batch.topic, batch.partition);
    queue.markAnswered(batch);
    batch.complete(baseOffset, logAppendTimeMs);
    this.#budget.release(batch.bufferedBytes);
    this.#maybeFinishRecovery(queue);
  }

  /**
   * A send of `batch` failed. `outcomeUnknown` says the broker may have stored it anyway (no answer
   * came back); an error answer means it did not.
   */
  #onBatchFailed(batch: ProducerBatch, error: unknown, outcomeUnknown: boolean): void {
    const queue = this.#queue(batch.topic, batch.partition);
    queue.markAnswered(batch);
    batch.lastError = error;
    if (outcomeUnknown) batch.maybeAppended = true;
    const code = error instanceof WeirError ? error.code : undefined;
    let retriable = error instanceof WeirError && error.retriable && !this.#client.closed;
    if (
      this.#gate === undefined &&
      this.#idempotent &&
      (code === ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER || code === ErrorCode.UNKNOWN_PRODUCER_ID)
    ) {
      // While an earlier batch is being retried, later ones are refused only because of it and go
      // again behind it unchanged. Otherwise the broker's idea of the sequence differs from ours
      // (it lost or expired the producer's state): nothing from here on was stored, so number it
      // again under a new producer id.
      retriable = !this.#client.closed;
      if (!queue.recovering) queue.needsNewIdentity = true;
    }
    if (needsMetadataRefresh(error)) this.#refreshTopic(batch.topic);
    const waitMs = this.#client.retryPolicy.backoffMs(batch.attempts);
    if (retriable && this.#client.retryPolicy.allows(batch.attempts, batch.createdAtMs, waitMs)) {
      queue.retries.push(batch);
      queue.recovering = true;
      queue.notBeforeMs = Math.max(queue.notBeforeMs, Date.now() + waitMs);
    } else {
      this.#failBatch(queue, batch, error);
    }
    this.#maybeFinishRecovery(queue);
  }

  /** Fails a batch for good. When it had a sequence number, the sequence now has a gap. */
  #failBatch(queue: PartitionQueue, batch: ProducerBatch, error: unknown): void {
    this.#gate?.onBatchFailed(error);
    batch.fail(error);
    this.#budget.release(batch.bufferedBytes);
    if (batch.identity !== undefined) {
      queue.needsNewIdentity = true;
      queue.recovering = true;
    }
  }

  #maybeFinishRecovery(queue: PartitionQueue): void {
    if (!queue.canFinishRecovery) return;
    for (const batch of queue.finishRecovery()) {
      batch.fail(batch.lastError);
      this.#budget.release(batch.bufferedBytes);
    }
    this.#scheduleDrain(0);
  }

  /** Fails batches that waited longer than the retry policy's total time without being sent. */
  #expireUnsent(queue: PartitionQueue, nowMs: number): void {
    const maxTotalMs = this.#client.retryPolicy.maxTotalMs;
    while (queue.ready.length > 0 && !queue.recovering) {
      const batch = queue.ready[0]!;
      if (nowMs - batch.createdAtMs <= maxTotalMs) return;
      queue.ready.shift();
      const error =
        batch.lastError ??
        new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
          detail: `a batch for ${queue.topic}-${queue.partition} could not be sent within ${maxTotalMs} ms.`,
        });
      this.#failBatch(queue, batch, error);
      this.#maybeFinishRecovery(queue);
    }
  }

  /** Fails every batch that has not been sent (no producer id could be obtained). */
  #failUnsent(error: unknown): void {
    for (const queue of this.#queues.values()) {
      queue.closeOpen();
      const unsent = queue.ready.filter((batch) => !batch.encoded);
      for (const batch of unsent) {
        queue.ready.splice(queue.ready.indexOf(batch), 1);
        batch.fail(error);
        this.#budget.release(batch.bufferedBytes);
      }
    }
  }

  /** The client closed under the producer: nothing can be sent any more. */
  #failEverything(error: unknown): void {
    this.#budget.rejectWaiters(error);
    for (const queue of this.#queues.values()) {
      queue.closeOpen();
      for (const batch of [...queue.ready.splice(0), ...queue.retries.splice(0)]) {
        batch.fail(error);
        this.#budget.release(batch.bufferedBytes);
      }
    }
  }
}

function requestBytes(batches: readonly ProducerBatch[]): number {
  let total = 0;
  for (const batch of batches) total += batch.bytes.length;
  return total;
}

function atLeast(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) throw new RangeError(`${name} must be ≥ ${min}, got ${value}`);
  return value;
}

function noop(): void {}
