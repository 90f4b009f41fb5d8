import { CreateTopics, Fetch, type RequestOf } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOf, produceValues, RawConnection, valuesOf } from './raw-socket';

/**
 * A Fetch's byte limits over several partitions (KIP-74): each partition stops at its own limit,
 * the response at `maxBytes` shared in request order, and only the first partition with data may
 * return a first batch larger than those limits. The broker reads the partitions at once when
 * their own limits fit `maxBytes` and one after the other otherwise; both must answer alike, and
 * alike again when the records stay on disk until written (`fetchInMemoryBytes` 0).
 */
describe.each([
  { records: 'read into memory', fetchInMemoryBytes: 1024 * 1024 },
  { records: 'left on disk until written', fetchInMemoryBytes: 0 },
])('Fetch byte limits across partitions, records $records', ({ fetchInMemoryBytes }) => {
  const TOPIC = 'limits';
  /** Every small batch is the same size: one record of this value. */
  const SMALL = 'x'.repeat(900);
  const BIG = 'y'.repeat(5000);
  let broker: RunningBroker;
  let connection: RawConnection;
  let smallBatchBytes: number;

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: false }, limits: { fetchInMemoryBytes } });
    connection = await RawConnection.open(broker.port);
    const created = await connection.request(CreateTopics, 4, {
      topics: [{ name: TOPIC, numPartitions: 4, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(0);
    smallBatchBytes = batchOf([`0-${SMALL}`]).length;
    // Partitions 0 and 3 hold three small batches each; 1 and 2 start with a big one.
    for (const partition of [0, 1, 2, 3]) {
      const values =
        partition === 1 || partition === 2
          ? [`${partition}-${BIG}`, `${partition}-${SMALL}`]
          : [0, 1, 2].map(() => `${partition}-${SMALL}`);
      for (const value of values) {
        expect((await produceValues(connection, TOPIC, partition, [value])).errorCode).toBe(0);
      }
    }
  });
  afterAll(async () => {
    await connection?.destroy();
    await broker?.dispose();
  });

  async function fetchPartitions(
    partitions: readonly number[],
    limits: { maxBytes: number; partitionMaxBytes: number },
  ): Promise<number[]> {
    const body: RequestOf<typeof Fetch> = {
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes: limits.maxBytes,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [
        {
          topic: TOPIC,
          partitions: partitions.map((partition) => ({
            partition,
            currentLeaderEpoch: -1,
            fetchOffset: 0n,
            logStartOffset: -1n,
            partitionMaxBytes: limits.partitionMaxBytes,
          })),
        },
      ],
      forgottenTopicsData: [],
      rackId: '',
    };
    const response = await connection.request(Fetch, 11, body);
    const answers = response.responses[0]!.partitions;
    expect(answers.map((answer) => answer.partitionIndex)).toEqual([...partitions]);
    return answers.map((answer) => valuesOf(answer.records).length);
  }

  it('stops each partition at its own limit when the limits fit maxBytes', async () => {
    const perPartition = { maxBytes: 1_000_000, partitionMaxBytes: 2 * smallBatchBytes };
    expect(await fetchPartitions([0, 3], perPartition)).toEqual([2, 2]);
  });

  it('returns an oversized first batch only for the first partition with data', async () => {
    const tight = { maxBytes: 1_000_000, partitionMaxBytes: smallBatchBytes };
    // 1 and 2 begin with a batch bigger than their limit: only the first of them gets it.
    expect(await fetchPartitions([1, 2, 0], tight)).toEqual([1, 0, 1]);
    expect(await fetchPartitions([0, 1, 2], tight)).toEqual([1, 0, 0]);
  });

  it('shares maxBytes in request order when the partition limits exceed it', async () => {
    const shared = { maxBytes: Math.floor(2.5 * smallBatchBytes), partitionMaxBytes: 2 * smallBatchBytes };
    expect(await fetchPartitions([0, 3], shared)).toEqual([2, 0]);
    expect(await fetchPartitions([1, 0, 3], shared)).toEqual([1, 0, 0]);
  });

  it('applies maxBytes in request order after an oversized first batch when the limits fit it', async () => {
    // The big batch of partition 2 uses up most of maxBytes; what is left holds one small batch.
    const bigBatchBytes = batchOf([`2-${BIG}`]).length;
    const limits = {
      maxBytes: bigBatchBytes + Math.floor(1.5 * smallBatchBytes),
      partitionMaxBytes: 2 * smallBatchBytes,
    };
    // Within maxBytes, so the partitions are read at once.
    expect(3 * limits.partitionMaxBytes).toBeLessThanOrEqual(limits.maxBytes);
    expect(await fetchPartitions([2, 0, 3], limits)).toEqual([1, 1, 0]);
  });
});
