import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import { Produce } from '../messages/apis/produce';
import type { RequestOf, ResponseOf } from '../schema/api';
import { BatchBufferPool } from './batch-buffer-pool';
import { BatchOutcomes } from './batch-outcomes';
import { type BatchSequencing, prepareBatch } from './batch-sequencing';
import { ByteBudget } from './byte-budget';
import type { Client } from './client';
import { ClosedError } from './closed-error';
import type { Connection } from './connection';
import { DrainTimer } from './drain-timer';
import { LeaderLinks } from './leader-links';
import type { ProducerRecord, RecordMetadata } from './message';
import type { PartitionQueue } from './partition-queue';
import { PartitionQueues } from './partition-queues';
import { partitionForKey, StickyPartitioner } from './partitioner';
import { pendingRecords } from './pending-records';
import { batchAnswer, produceRequest, requestBytes } from './produce-request';
import { type PendingRecord, ProducerBatch, SendTracker } from './producer-batch';
import { ProducerIdentitySource } from './producer-identity';
import type { ProducerOptions, ProducerTestHooks } from './producer-options';
import { type ProducerSettings, producerSettings } from './producer-settings';
import type { ProducerTransactionGate } from './transaction/transaction-gate';

/** Room beyond batchBytes a new batch's buffer gets: the record that fills a batch may pass it. */
const BATCH_SLACK_BYTES = 1024;
/**
 * At most this many answered batch buffers are kept for reuse, however large the producer's
 * buffer: enough for the batches a default producer has in flight (32 MiB of 1 MiB batches).
 */
const MAX_POOLED_BATCH_BUFFERS = 32;

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
  readonly #settings: ProducerSettings;
  readonly #hooks: ProducerTestHooks | undefined;
  readonly #budget: ByteBudget;
  /** Buffers of answered full-size batches, reused by new ones. */
  readonly #batchBuffers: BatchBufferPool;
  readonly #sticky: StickyPartitioner;
  readonly #queues = new PartitionQueues();
  readonly #leaders: LeaderLinks;
  readonly #outcomes: BatchOutcomes;
  readonly #outstanding = new Set<SendTracker>();
  #appendChain: Promise<void> = Promise.resolve();
  readonly #drainTimer = new DrainTimer(() => this.#drain());
  /** Where batches get their producer identity and sequence numbers. */
  readonly #sequencing: BatchSequencing;
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
    this.#settings = producerSettings(options);
    this.#budget = new ByteBudget(this.#settings.bufferBytes);
    const { batchBytes, bufferBytes } = this.#settings;
    this.#batchBuffers = new BatchBufferPool(
      batchBytes + BATCH_SLACK_BYTES,
      Math.min(MAX_POOLED_BATCH_BUFFERS, Math.ceil(bufferBytes / batchBytes)),
    );
    this.#hooks = options.testHooks;
    this.#sticky = new StickyPartitioner(client.random);
    const wake = () => this.#scheduleDrain(0);
    this.#leaders = new LeaderLinks(client, this.#queues, wake);
    this.#outcomes = new BatchOutcomes({
      client,
      budget: this.#budget,
      queues: this.#queues,
      idempotent: this.#settings.idempotent,
      gate,
      wake,
      refreshTopic: (topic) => this.#leaders.refreshTopic(topic),
    });
    const identities = new ProducerIdentitySource(client, (error) => {
      // Without a producer id nothing can be sent: fail what waits for one; the next send asks again.
      if (error !== undefined) this.#outcomes.failUnsent(error);
      this.#scheduleDrain(0);
    });
    this.#sequencing = {
      compression: this.#settings.compression,
      idempotent: this.#settings.idempotent,
      identities,
      gate,
    };
    client.signal.addEventListener('abort', this.#onClientClosed, { once: true });
    if (gate !== undefined) {
      if (!this.#settings.idempotent)
        throw new RangeError('a transactional producer is idempotent (acks=-1)');
      gate.bind({ wake, failUnsent: (error) => this.#outcomes.failUnsent(error) });
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
      records = pendingRecords(record.messages, tracker, this.#budget.capacityBytes);
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
    const queues = this.#queues.ofTopic(topic);
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
        const queue = queues[partition] ?? this.#queues.create(topic, partition);
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
    const { batchBytes } = this.#settings;
    if (batch?.wouldOverflow(record.sizeBytes, batchBytes)) {
      this.#closeOpen(queue);
      batch = undefined;
    }
    if (batch === undefined) {
      // Sized like the partition's previous batch, so a busy partition's batches rarely grow.
      const capacityBytes = Math.min(queue.lastBatchBytes, batchBytes + BATCH_SLACK_BYTES);
      batch = new ProducerBatch(
        queue.topic,
        queue.partition,
        this.#nextSerial++,
        Date.now(),
        capacityBytes,
        this.#batchBuffers,
      );
      queue.open = batch;
      this.#scheduleDrain(this.#settings.lingerMs);
    }
    batch.append(record);
    if (batch.sizeBytes >= batchBytes) this.#closeOpen(queue);
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
      this.#outcomes.failEverything(new ClosedError('the client'));
      return;
    }
    const { lingerMs, maxInFlight, maxRequestBytes } = this.#settings;
    const nowMs = Date.now();
    let wakeAtMs = Number.POSITIVE_INFINITY;
    const closeAll = this.#closeOpenBatches;
    this.#closeOpenBatches = false;
    for (const queue of this.#queues.values()) {
      const open = queue.open;
      if (open !== undefined) {
        const dueAtMs = open.createdAtMs + lingerMs;
        // A batch that could not leave now anyway stays open and keeps filling (up to batchBytes)
        // until the partition can send: under load batches grow by themselves, and the next drain,
        // which every answer triggers, closes it.
        if (closeAll || (dueAtMs <= nowMs && !queue.isBusy(maxInFlight, nowMs))) this.#closeOpen(queue);
        else if (dueAtMs > nowMs) wakeAtMs = Math.min(wakeAtMs, dueAtMs);
        else if (queue.notBeforeMs > nowMs) wakeAtMs = Math.min(wakeAtMs, queue.notBeforeMs);
      }
      this.#outcomes.expireUnsent(queue, nowMs);
      // A batch that cannot go yet is failed at the end of its retry budget even if nothing else
      // (an answer, a connection, a metadata lookup) wakes the drain before then: a send must
      // settle within its budget whatever state the cluster is in.
      const waiting = queue.ready[0];
      if (waiting !== undefined && !queue.recovering) {
        wakeAtMs = Math.min(wakeAtMs, waiting.createdAtMs + this.#client.retryPolicy.maxTotalMs + 1);
      }
    }
    for (let round = 0; round < maxInFlight; round++) {
      const requests = new Map<Connection, ProducerBatch[][]>();
      for (const queue of this.#queues.values()) {
        const batch = queue.ready[0];
        if (batch === undefined || queue.recovering || queue.inFlight.length >= maxInFlight) continue;
        if (queue.notBeforeMs > nowMs) {
          wakeAtMs = Math.min(wakeAtMs, queue.notBeforeMs);
          continue;
        }
        if (!batch.encoded && this.#gate !== undefined && !this.#gate.admit(queue.topic, queue.partition))
          continue;
        const connection = this.#leaders.connectionFor(queue, nowMs);
        if (connection === undefined || !prepareBatch(queue, batch, this.#sequencing)) continue;
        queue.markSent(batch);
        const perConnection = requests.get(connection) ?? [[]];
        requests.set(connection, perConnection);
        let current = perConnection.at(-1)!;
        if (current.length > 0 && requestBytes(current) + batch.bytes.length > maxRequestBytes) {
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

  #sendRequest(connection: Connection, batches: ProducerBatch[]): void {
    const { acks, compression } = this.#settings;
    let body: RequestOf<typeof Produce>;
    try {
      body = produceRequest(connection, batches, {
        transactionalId: this.#gate?.transactionalId ?? null,
        acks,
        timeoutMs: this.#client.requestTimeoutMs,
        compression,
      });
    } catch (error) {
      // Nothing was written, so nothing can have been stored.
      for (const batch of batches) this.#outcomes.failed(batch, error, false);
      return;
    }
    if (acks === 0) {
      connection.sendWithoutResponse(Produce, body).then(
        () => {
          for (const batch of batches) this.#outcomes.stored(batch, -1n, -1n);
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
      const answer = batchAnswer(batch, response, this.#hooks);
      if (answer.stored) this.#outcomes.stored(batch, answer.baseOffset, answer.logAppendTimeMs);
      else this.#outcomes.failed(batch, answer.error, answer.outcomeUnknown);
    }
    this.#scheduleDrain(0);
  }

  /** The request got no answer: whatever it carried may or may not have been stored. */
  #onRequestFailed(batches: readonly ProducerBatch[], error: unknown): void {
    for (const batch of batches) this.#outcomes.failed(batch, error, true);
    this.#scheduleDrain(0);
  }
}

function noop(): void {}
