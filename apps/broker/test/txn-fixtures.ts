import {
  AddOffsetsToTxn,
  AddPartitionsToTxn,
  DescribeProducers,
  DescribeTransactions,
  EndTxn,
  encodeRecordBatch,
  InitProducerId,
  ListOffsets,
  ListTransactions,
  Produce,
  TxnOffsetCommit,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll } from 'vitest';
import type { BrokerConfigInput } from '../src/config/broker-config';
import { type InternalSession, internalSession } from './internal-fixtures';
import { RawClient } from './raw-client';

/** A transactional producer as the coordinator knows it. */
export interface Claim {
  transactionalId: string;
  producerId: bigint;
  producerEpoch: number;
}

/**
 * The transactional producer's requests, hand-built at the versions librdkafka and kafkajs send,
 * over a {@link RawClient}. Each returns the decoded answer's error codes.
 */
export class TxnWire {
  constructor(private readonly client: RawClient) {}

  async init(transactionalId: string, transactionTimeoutMs = 60_000) {
    return this.client.request(InitProducerId, 1, { transactionalId, transactionTimeoutMs });
  }

  /** InitProducerId that must succeed, as the claim the following requests make. */
  async claim(transactionalId: string, transactionTimeoutMs = 60_000): Promise<Claim> {
    const answer = await this.init(transactionalId, transactionTimeoutMs);
    if (answer.errorCode !== 0) throw new Error(`InitProducerId failed with ${answer.errorCode}`);
    return { transactionalId, producerId: answer.producerId, producerEpoch: answer.producerEpoch };
  }

  /** AddPartitionsToTxn v0 (librdkafka's only version): the error of each partition, in order. */
  async addPartitions(claim: Claim, topic: string, partitions: number[]): Promise<number[]> {
    const answer = await this.client.request(AddPartitionsToTxn, 0, {
      v3AndBelowTransactionalId: claim.transactionalId,
      v3AndBelowProducerId: claim.producerId,
      v3AndBelowProducerEpoch: claim.producerEpoch,
      v3AndBelowTopics: [{ name: topic, partitions }],
    });
    return answer.resultsByTopicV3AndBelow.flatMap((row) =>
      row.resultsByPartition.map((partition) => partition.partitionErrorCode),
    );
  }

  async addOffsets(claim: Claim, groupId: string): Promise<number> {
    const answer = await this.client.request(AddOffsetsToTxn, 0, { ...claim, groupId });
    return answer.errorCode;
  }

  /** TxnOffsetCommit v2 (librdkafka's): one offset per partition. */
  async commitOffsets(claim: Claim, groupId: string, topic: string, offsets: Record<number, number>) {
    const answer = await this.client.request(TxnOffsetCommit, 2, {
      ...claim,
      groupId,
      topics: [
        {
          name: topic,
          partitions: Object.entries(offsets).map(([partition, offset]) => ({
            partitionIndex: Number(partition),
            committedOffset: BigInt(offset),
            committedLeaderEpoch: -1,
            commitTimestampMs: -1n,
            committedMetadata: null,
          })),
        },
      ],
    });
    return answer.topics.flatMap((row) => row.partitions.map((partition) => partition.errorCode));
  }

  async end(claim: Claim, committed: boolean): Promise<number> {
    const answer = await this.client.request(EndTxn, 1, { ...claim, committed });
    return answer.errorCode;
  }

  /** Produce v7 of one transactional batch; the partition's error code. */
  async produce(claim: Claim, topic: string, partition: number, values: string[], baseSequence: number) {
    const records = encodeRecordBatch({
      records: values.map((value) => ({ key: null, value: Buffer.from(value), timestampMs: Date.now() })),
      producerId: claim.producerId,
      producerEpoch: claim.producerEpoch,
      baseSequence,
      isTransactional: true,
    });
    const answer = await this.client.request(Produce, 7, {
      transactionalId: claim.transactionalId,
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: topic, partitionData: [{ index: partition, records }] }],
    });
    return answer.responses[0]!.partitionResponses[0]!.errorCode;
  }

  /** ListOffsets v2 latest: the high watermark, or the last stable offset with `committed`. */
  async latest(topic: string, partition: number, committed: boolean): Promise<number> {
    const answer = await this.client.request(ListOffsets, 2, {
      replicaId: -1,
      isolationLevel: committed ? 1 : 0,
      topics: [
        {
          name: topic,
          partitions: [
            { partitionIndex: partition, currentLeaderEpoch: -1, timestamp: -1n, maxNumOffsets: 1 },
          ],
        },
      ],
    });
    return Number(answer.topics[0]!.partitions[0]!.offset);
  }
}

/**
 * Kafka's transaction inspection APIs over the internal listener, the only one that serves them
 * (they exist only in flexible versions; the client listener advertises none).
 */
export class TxnInspector {
  readonly #session: InternalSession;

  constructor(running: RunningBroker) {
    this.#session = internalSession(running);
  }

  async describe(transactionalId: string) {
    const answer = await this.#session.client.send('any', DescribeTransactions, {
      transactionalIds: [transactionalId],
    });
    return answer.transactionStates[0]!;
  }

  async list(stateFilters: string[], producerIdFilters: bigint[]) {
    return this.#session.client.send('any', ListTransactions, { stateFilters, producerIdFilters });
  }

  async producers(topic: string, partitionIndexes: number[]) {
    const answer = await this.#session.client.send('any', DescribeProducers, {
      topics: [{ name: topic, partitionIndexes }],
    });
    return answer.topics[0]!.partitions;
  }

  /** The SDK's internal admin on the same connection. */
  get internal() {
    return this.#session.internal;
  }

  close(): Promise<void> {
    return this.#session.close();
  }
}

/** The broker of a describe block's transaction tests, and what they use on it. */
export interface TxnSuiteBroker {
  readonly running: RunningBroker;
  readonly client: RawClient;
  readonly wire: TxnWire;
  readonly inspector: TxnInspector;
}

/**
 * Call in a describe block: before its tests, starts a broker with `overrides`, creates `topic` on
 * it and connects a raw client and an inspector; after them, closes both and disposes of the broker.
 */
export function txnBrokerPerSuite(
  overrides: BrokerConfigInput,
  topic: { name: string; partitionCount: number },
): TxnSuiteBroker {
  let started: TxnSuiteBroker | undefined;
  let running: RunningBroker | undefined;
  beforeAll(async () => {
    running = await startBroker(overrides);
    await running.broker.services.topics.createTopic({ ...topic, configs: {} });
    const client = await RawClient.connect(running.bootstrap);
    started = { running, client, wire: new TxnWire(client), inspector: new TxnInspector(running) };
  });
  afterAll(async () => {
    try {
      await started?.inspector.close();
      await started?.client.close();
    } finally {
      // Also when the set-up failed after the broker started.
      await running?.dispose();
    }
  });
  function current(): TxnSuiteBroker {
    if (started === undefined) throw new Error('the suite broker has not started');
    return started;
  }
  return {
    get running() {
      return current().running;
    },
    get client() {
      return current().client;
    },
    get wire() {
      return current().wire;
    },
    get inspector() {
      return current().inspector;
    },
  };
}
