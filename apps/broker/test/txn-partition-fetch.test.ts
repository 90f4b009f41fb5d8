import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AddPartitionsToTxn,
  CreateTopics,
  decodeRecordBatch,
  EndTxn,
  ErrorCode,
  encodeRecordBatch,
  Fetch,
  InitProducerId,
  isControlBatch,
  ListOffsets,
  OffsetCommit,
  Produce,
  splitBatches,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionMarkers } from '../src/replica/transaction-markers';
import { lagOf, pollUntil } from './group-fixtures';
import { batchOf, fetchBody, produceBody, RawConnection } from './raw-socket';

/** The record values of the data batches in a RECORDS blob; markers are left out. */
function dataValues(records: Buffer | null): string[] {
  const split = splitBatches(records ?? Buffer.alloc(0));
  if (!split.ok) throw split.error;
  return split.value.batches.flatMap((bytes) => {
    const batch = decodeRecordBatch(bytes);
    if (!batch.ok) throw batch.error;
    if (isControlBatch(batch.value.attributes)) return [];
    return batch.value.records.map((record) => record.value?.toString('utf8') ?? '<null>');
  });
}

/**
 * The partition side of transactions over the wire, with raw requests: the last stable offset
 * holds read_committed Fetch and ListOffsets at an open transaction, markers move it (waking
 * long-polls), aborted ranges come back with the records they overlap and survive restarts and
 * crash recovery, and a transactional batch for a partition outside the transaction is refused.
 */
describe('transactions on the partition side', () => {
  const TOPIC = 'txn-partitions';
  let broker: RunningBroker;
  /** The broker that made the data directory; the restarted ones only borrow it. */
  let owner: RunningBroker | undefined;
  let connection: RawConnection;

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: false } });
    owner = broker;
    connection = await RawConnection.open(broker.port);
    const created = await connection.request(CreateTopics, 4, {
      topics: [{ name: TOPIC, numPartitions: 7, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(0);
  });
  afterAll(async () => {
    try {
      await connection?.destroy();
    } finally {
      // The broker in use stops first; then the owner's dispose removes the directory.
      await broker?.dispose();
      await owner?.dispose();
    }
  });

  interface Txn {
    id: string;
    producerId: bigint;
    producerEpoch: number;
    sequence: number;
  }

  async function initTransactions(id: string): Promise<Txn> {
    const response = await connection.request(InitProducerId, 1, {
      transactionalId: id,
      transactionTimeoutMs: 60_000,
    });
    expect(response.errorCode).toBe(0);
    return { id, producerId: response.producerId, producerEpoch: response.producerEpoch, sequence: 0 };
  }

  async function addPartitions(txn: Txn, partitions: number[]): Promise<number[]> {
    const response = await connection.request(AddPartitionsToTxn, 1, {
      v3AndBelowTransactionalId: txn.id,
      v3AndBelowProducerId: txn.producerId,
      v3AndBelowProducerEpoch: txn.producerEpoch,
      v3AndBelowTopics: [{ name: TOPIC, partitions }],
    });
    return response.resultsByTopicV3AndBelow[0]!.resultsByPartition.map(
      (result) => result.partitionErrorCode,
    );
  }

  async function produceTransactional(
    txn: Txn,
    partition: number,
    values: string[],
  ): Promise<{ errorCode: number; baseOffset: bigint }> {
    const batch = encodeRecordBatch({
      records: values.map((value) => ({ key: null, value: Buffer.from(value), timestampMs: Date.now() })),
      producerId: txn.producerId,
      producerEpoch: txn.producerEpoch,
      baseSequence: txn.sequence,
      isTransactional: true,
    });
    const body = produceBody(-1, [{ topic: TOPIC, partitions: [{ partition, records: batch }] }]);
    const response = await connection.request(Produce, 7, { ...body, transactionalId: txn.id });
    const answer = response.responses[0]!.partitionResponses[0]!;
    if (answer.errorCode === 0) txn.sequence += values.length;
    return { errorCode: answer.errorCode, baseOffset: answer.baseOffset };
  }

  async function endTransaction(txn: Txn, committed: boolean): Promise<void> {
    const response = await connection.request(EndTxn, 1, {
      transactionalId: txn.id,
      producerId: txn.producerId,
      producerEpoch: txn.producerEpoch,
      committed,
    });
    expect(response.errorCode).toBe(0);
    txn.sequence = 0;
  }

  async function producePlain(partition: number, values: string[]): Promise<void> {
    const response = await connection.request(
      Produce,
      7,
      produceBody(-1, [{ topic: TOPIC, partitions: [{ partition, records: batchOf(values) }] }]),
    );
    expect(response.responses[0]!.partitionResponses[0]!.errorCode).toBe(0);
  }

  async function fetch(
    partition: number,
    offset: bigint,
    isolation: 0 | 1,
    wait: { maxWaitMs?: number; minBytes?: number } = {},
    via = connection,
  ) {
    const body = { ...fetchBody(TOPIC, partition, offset, wait), isolationLevel: isolation };
    const response = await via.request(Fetch, 11, body);
    const answer = response.responses[0]!.partitions[0]!;
    expect(answer.errorCode).toBe(0);
    return { ...answer, values: dataValues(answer.records) };
  }

  async function latest(partition: number, isolation: 0 | 1): Promise<bigint> {
    const response = await connection.request(ListOffsets, 2, {
      replicaId: -1,
      isolationLevel: isolation,
      topics: [
        {
          name: TOPIC,
          partitions: [
            { partitionIndex: partition, currentLeaderEpoch: -1, timestamp: -1n, maxNumOffsets: 1 },
          ],
        },
      ],
    });
    const answer = response.topics[0]!.partitions[0]!;
    expect(answer.errorCode).toBe(0);
    return answer.offset;
  }

  it('holds read_committed Fetch and ListOffsets at an open transaction, and lists the aborted range', async () => {
    await producePlain(0, ['p0', 'p1']); // 0..1
    const txn = await initTransactions('partition-side-abort');
    expect(await addPartitions(txn, [0])).toEqual([0]);
    expect((await produceTransactional(txn, 0, ['a0', 'a1', 'a2'])).baseOffset).toBe(2n); // 2..4
    await producePlain(0, ['p2']); // 5

    const open = await fetch(0, 0n, 1);
    expect(open.highWatermark).toBe(6n);
    expect(open.lastStableOffset).toBe(2n);
    expect(open.values).toEqual(['p0', 'p1']);
    expect(open.abortedTransactions).toEqual([]);
    expect(await latest(0, 1)).toBe(2n);
    expect(await latest(0, 0)).toBe(6n);
    const uncommitted = await fetch(0, 0n, 0);
    expect(uncommitted.values).toEqual(['p0', 'p1', 'a0', 'a1', 'a2', 'p2']);
    expect(uncommitted.abortedTransactions).toBeNull();
    expect(uncommitted.lastStableOffset).toBe(2n);
    const stats = broker.broker.partitionStats().find((row) => row.topic === TOPIC && row.partition === 0);
    expect(stats).toMatchObject({ highWatermark: 6, lastStableOffset: 2 });

    await endTransaction(txn, false); // ABORT marker at 6
    const settled = await fetch(0, 0n, 1);
    expect(settled.lastStableOffset).toBe(7n);
    expect(settled.highWatermark).toBe(7n);
    // The records are all returned; the client drops producer `txn`'s from offset 2 to its marker.
    expect(settled.values).toEqual(['p0', 'p1', 'a0', 'a1', 'a2', 'p2']);
    expect(settled.abortedTransactions).toEqual([{ producerId: txn.producerId, firstOffset: 2n }]);
    expect(await latest(0, 1)).toBe(7n);
    await producePlain(0, ['p3']); // 7
    expect((await fetch(0, 7n, 1)).abortedTransactions).toEqual([]);
  });

  it('wakes a read_committed long-poll when a commit moves the last stable offset', async () => {
    const txn = await initTransactions('partition-side-commit');
    expect(await addPartitions(txn, [1])).toEqual([0]);
    await produceTransactional(txn, 1, ['c0', 'c1']); // 0..1
    const poller = await RawConnection.open(broker.port);
    // The fetches parked on partition 1 say when the Fetch waits there, so the commit below is
    // known to wake a waiting Fetch rather than race a Fetch that has not read yet.
    const parkedFetches = () => broker.broker.parkedFetchCount(TOPIC, 1);
    try {
      const startedMs = Date.now();
      let answered = false;
      const parked = fetch(1, 0n, 1, { maxWaitMs: 10_000, minBytes: 1 }, poller).finally(() => {
        answered = true;
      });
      await pollUntil(() => parkedFetches() === 1, 'the read_committed Fetch to park on partition 1', {
        timeoutMs: 5_000,
        intervalMs: 5,
      });
      expect(answered).toBe(false);
      await endTransaction(txn, true);
      const woken = await parked;
      expect(parkedFetches()).toBe(0);
      expect(Date.now() - startedMs).toBeLessThan(5_000);
      expect(woken.values).toEqual(['c0', 'c1']);
      expect(woken.lastStableOffset).toBe(3n);
      expect(woken.abortedTransactions).toEqual([]);
    } finally {
      await poller.destroy();
    }
  });

  it('refuses a transactional batch for a partition not added to the transaction', async () => {
    const txn = await initTransactions('partition-side-not-added');
    expect(await addPartitions(txn, [2])).toEqual([0]);
    expect((await produceTransactional(txn, 3, ['stray'])).errorCode).toBe(ErrorCode.INVALID_TXN_STATE);
    expect((await produceTransactional(txn, 2, ['kept'])).errorCode).toBe(0);
    await endTransaction(txn, true);
    expect((await fetch(3, 0n, 0)).values).toEqual([]);
    // A newer epoch fences the old one: INVALID_PRODUCER_EPOCH.
    const fenced = { ...txn };
    const current = await initTransactions(txn.id);
    expect(await addPartitions(current, [2])).toEqual([0]);
    expect((await produceTransactional(fenced, 2, ['zombie'])).errorCode).toBe(
      ErrorCode.INVALID_PRODUCER_EPOCH,
    );
    await endTransaction(current, false);
  });

  it('answers each partition of a marker write on its own', async () => {
    await initTransactions('partition-side-markers');
    // The second InitProducerId bumps the epoch to 1, which partition 4 then sees.
    const txn = await initTransactions('partition-side-markers');
    expect(txn.producerEpoch).toBeGreaterThan(0);
    expect(await addPartitions(txn, [4])).toEqual([0]);
    await produceTransactional(txn, 4, ['m0']);
    await endTransaction(txn, true);
    const markers = new TransactionMarkers(
      broker.broker.services.replicas,
      { nowMs: () => Date.now() },
      (error) => {
        throw error;
      },
    );
    const written = await markers.writeMarkers({
      producerId: txn.producerId,
      // Older than the epoch partition 4 has seen from this producer.
      producerEpoch: txn.producerEpoch - 1,
      result: 'abort',
      coordinatorEpoch: 0,
      partitions: [
        { topic: TOPIC, partition: 4 },
        { topic: TOPIC, partition: 5 },
        { topic: 'no-such-topic', partition: 0 },
        { topic: TOPIC, partition: 99 },
      ],
    });
    expect(written).toEqual([
      { topic: TOPIC, partition: 4, errorCode: ErrorCode.INVALID_PRODUCER_EPOCH },
      // A partition without an open transaction still gets the marker (a retry must be safe).
      { topic: TOPIC, partition: 5, errorCode: 0 },
      { topic: 'no-such-topic', partition: 0, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
      { topic: TOPIC, partition: 99, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
    ]);
    const marked = await fetch(5, 0n, 0);
    expect(marked.highWatermark).toBe(1n);
    expect(marked.values).toEqual([]);
  });

  it('measures group lag against the last stable offset (transaction-aware)', async () => {
    await producePlain(6, ['l0', 'l1']); // 0..1
    const txn = await initTransactions('partition-side-lag');
    expect(await addPartitions(txn, [6])).toEqual([0]);
    await produceTransactional(txn, 6, ['l2', 'l3', 'l4']); // 2..4, open
    const commit = await connection.request(OffsetCommit, 2, {
      groupId: 'txn-lag',
      generationIdOrMemberEpoch: -1,
      memberId: '',
      groupInstanceId: null,
      retentionTimeMs: -1n,
      topics: [
        {
          name: TOPIC,
          partitions: [
            {
              partitionIndex: 6,
              committedOffset: 1n,
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: null,
            },
          ],
        },
      ],
    });
    expect(commit.topics[0]!.partitions[0]!.errorCode).toBe(0);
    const lagRow = () => lagOf(broker.broker, 'txn-lag')!.partitions[0]!;
    const rowOf = () =>
      broker.broker.services.operator.groupLags.describeGroupLags(['txn-lag']).groups[0]!.partitions[0]!;
    // The open transaction's three records are not counted yet: LSO 2 − committed 1.
    expect(lagRow()).toMatchObject({ highWatermark: 5, lag: 1 });
    expect(rowOf()).toMatchObject({ logEndOffset: 5n, lag: 1n });
    await endTransaction(txn, true); // COMMIT at 5: LSO 6
    expect(lagRow()).toMatchObject({ highWatermark: 6, lag: 5 });
    expect(rowOf().lag).toBe(5n);
  });

  it('keeps aborted ranges across a restart and rebuilds them after a crash', async () => {
    const txn = await initTransactions('partition-side-restart');
    expect(await addPartitions(txn, [2])).toEqual([0]);
    const { baseOffset } = await produceTransactional(txn, 2, ['r0', 'r1']);
    await endTransaction(txn, false);
    const before = await fetch(2, 0n, 1);
    expect(before.abortedTransactions).toContainEqual({
      producerId: txn.producerId,
      firstOffset: baseOffset,
    });

    await connection.destroy();
    await broker.stop();
    broker = await startBroker({ topics: { autoCreateEnable: false } }, broker.dataDir);
    connection = await RawConnection.open(broker.port);
    const restarted = await fetch(2, 0n, 1);
    expect(restarted.abortedTransactions).toEqual(before.abortedTransactions);
    expect(restarted.lastStableOffset).toBe(before.lastStableOffset);

    // As after a crash: no clean-shutdown marker and the transaction index gone.
    await connection.destroy();
    await broker.stop();
    const partitionDirectory = join(broker.dataDir, 'logs', `${TOPIC}-2`);
    await unlink(join(broker.dataDir, 'logs', '.weir-clean-shutdown'));
    await unlink(join(partitionDirectory, '00000000000000000000.txnindex'));
    broker = await startBroker({ topics: { autoCreateEnable: false } }, broker.dataDir);
    connection = await RawConnection.open(broker.port);
    const recovered = await fetch(2, 0n, 1);
    expect(recovered.abortedTransactions).toEqual(before.abortedTransactions);
    expect(recovered.values).toEqual(before.values);
  });
});
