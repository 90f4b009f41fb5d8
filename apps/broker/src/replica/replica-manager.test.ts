import { ErrorCode, encodeRecordBatch, encodeTransactionMarkerBatch } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/group-fixtures';
import { makeBatch, temporaryDirectory } from '../../test/log-fixtures';
import { type ReplicaFixture, startReplicas } from '../../test/replica-fixtures';
import type { PartitionAssignment } from '../metadata/metadata-store';
import type { FetchRequest } from './fetch-reads';

/*
 * The replica layer over real logs and the local metadata store: roles follow assignments, the
 * high watermark is the in-sync replicas' smallest log end (not this broker's log end), every
 * reader stops at it, and acks=-1 produces and long-polling fetches wait in the purgatory.
 */

const TOPIC = 'orders';
const ANOTHER_BROKER = 7;

let directory: { path: string; cleanup(): Promise<void> };
let fixture: ReplicaFixture;
let leadership: string[];

function produce(acks: number, timeoutMs = 5_000) {
  return fixture.replicas.appendRecords({
    topic: TOPIC,
    partition: 0,
    records: makeBatch({ count: 2 }),
    acks,
    timeoutMs,
    transactionalId: null,
  });
}

function fetchRequest(overrides: Partial<FetchRequest> = {}, currentLeaderEpoch = -1): FetchRequest {
  return {
    partitions: [
      { topic: TOPIC, partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch },
    ],
    maxWaitMs: 0,
    minBytes: 1,
    maxBytes: 1 << 20,
    isolationLevel: 'read_uncommitted',
    ...overrides,
  };
}

/** Changes the partition's assignment through the metadata store, as a controller would. */
async function reassign(change: Partial<PartitionAssignment>): Promise<void> {
  const current = fixture.view.assignment(TOPIC, 0)!;
  await fixture.store.compareAndSetAssignment({ ...current, ...change });
  await fixture.replicas.whenApplied();
}

beforeEach(async () => {
  directory = await temporaryDirectory('weir-replicas-');
  fixture = await startReplicas(directory.path);
  leadership = [];
  fixture.replicas.onLeadershipChange({
    onBecomeLeader: (topic, partition, epoch) => leadership.push(`lead ${topic}-${partition}@${epoch}`),
    onResign: (topic, partition) => leadership.push(`resign ${topic}-${partition}`),
  });
  await fixture.topics.createTopic({ name: TOPIC, partitionCount: 1, configs: {} });
});

afterEach(async () => {
  await fixture.stop();
  await directory.cleanup();
});

describe('ReplicaManager', () => {
  it('leads a standalone partition from epoch 0 with itself as the only in-sync replica', async () => {
    expect(leadership).toEqual([`lead ${TOPIC}-0@0`]);
    await produce(1);
    await produce(-1);
    expect(fixture.replicas.offsets(TOPIC, 0)).toEqual({
      logStartOffset: 0,
      logEndOffset: 4,
      highWatermark: 4,
      lastStableOffset: 4,
    });
    const [read] = await fixture.replicas.fetch(fetchRequest(), new AbortController().signal);
    expect(read).toMatchObject({ errorCode: ErrorCode.NONE, highWatermark: 4 });
    expect(read!.records.length).toBeGreaterThan(0);
  });

  it('holds the high watermark at an in-sync replica whose end it does not know, and serves nothing past it', async () => {
    await produce(1); // 0..1, committed while this broker is the only in-sync replica
    await reassign({ replicas: [0, ANOTHER_BROKER], isr: [0, ANOTHER_BROKER] });
    expect(leadership).toEqual([`lead ${TOPIC}-0@0`]);
    await produce(1); // 2..3: written, not committed
    const offsets = fixture.replicas.offsets(TOPIC, 0);
    expect(offsets).toMatchObject({ logEndOffset: 4, highWatermark: 2, lastStableOffset: 2 });
    expect(await fixture.replicas.listOffset({ topic: TOPIC, partition: 0, timestampMs: -1 })).toEqual({
      offset: 2,
      timestampMs: -1,
      leaderEpoch: 0,
    });
    const [beyond] = await fixture.replicas.fetch(fetchRequest({}, -1), new AbortController().signal);
    expect(beyond!.highWatermark).toBe(2);
    // Between the high watermark and the log end a read is valid and empty, as in Kafka; past the
    // log end it is out of range.
    const aboveHighWatermark = await fixture.replicas.fetch(
      fetchRequest({ partitions: [{ topic: TOPIC, partition: 0, fetchOffset: 3, partitionMaxBytes: 1024 }] }),
      new AbortController().signal,
    );
    expect(aboveHighWatermark[0]).toMatchObject({ errorCode: ErrorCode.NONE, highWatermark: 2 });
    expect(aboveHighWatermark[0]!.records.length).toBe(0);
    const pastEnd = await fixture.replicas.fetch(
      fetchRequest({ partitions: [{ topic: TOPIC, partition: 0, fetchOffset: 5, partitionMaxBytes: 1024 }] }),
      new AbortController().signal,
    );
    expect(pastEnd[0]!.errorCode).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
    await expect(
      fixture.replicas.deleteRecords({ topic: TOPIC, partition: 0, offset: 3 }),
    ).rejects.toMatchObject({
      code: ErrorCode.OFFSET_OUT_OF_RANGE,
    });

    // acks=-1 waits for the high watermark and gets REQUEST_TIMED_OUT when it does not come.
    const startedMs = Date.now();
    await expect(produce(-1, 150)).rejects.toMatchObject({ code: ErrorCode.REQUEST_TIMED_OUT });
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(140);

    // A parked fetch and a waiting acks=-1 produce are both answered when the ISR shrinks back.
    const parked = fixture.replicas.fetch(
      fetchRequest({
        partitions: [{ topic: TOPIC, partition: 0, fetchOffset: 2, partitionMaxBytes: 1 << 20 }],
        maxWaitMs: 10_000,
      }),
      new AbortController().signal,
    );
    const waiting = produce(-1, 10_000);
    await pollUntil(() => fixture.replicas.parkedFetchCount(TOPIC, 0) === 1, 'the fetch to park');
    await reassign({ replicas: [0], isr: [0] });
    expect(await waiting).toMatchObject({ baseOffset: 6 });
    const [woken] = await parked;
    expect(woken).toMatchObject({ errorCode: ErrorCode.NONE, highWatermark: 8 });
    expect(woken!.records.length).toBeGreaterThan(0);
    expect(fixture.replicas.parkedFetchCount(TOPIC, 0)).toBe(0);
  });

  it('answers NOT_LEADER_OR_FOLLOWER once leadership moves away, and leads again at the newer epoch', async () => {
    await produce(1);
    await reassign({ replicas: [0, ANOTHER_BROKER], isr: [0, ANOTHER_BROKER] });
    // The write made under the old leadership is answered as such, not left to time out. The
    // expectation is attached before the move: the answer can come while the move is applied, and a
    // rejection nobody handles yet is reported as unhandled.
    const waiting = expect(produce(-1, 10_000)).rejects.toMatchObject({
      code: ErrorCode.NOT_LEADER_OR_FOLLOWER,
    });
    await reassign({ leader: ANOTHER_BROKER, leaderEpoch: 1 });
    await waiting;
    expect(leadership).toEqual([`lead ${TOPIC}-0@0`, `resign ${TOPIC}-0`]);
    await expect(produce(1)).rejects.toMatchObject({ code: ErrorCode.NOT_LEADER_OR_FOLLOWER });
    const [fetched] = await fixture.replicas.fetch(fetchRequest(), new AbortController().signal);
    expect(fetched!.errorCode).toBe(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    await expect(
      fixture.replicas.listOffset({ topic: TOPIC, partition: 0, timestampMs: -2 }),
    ).rejects.toMatchObject({
      code: ErrorCode.NOT_LEADER_OR_FOLLOWER,
    });

    await reassign({ leader: 0, leaderEpoch: 2, replicas: [0], isr: [0] });
    expect(leadership.at(-1)).toBe(`lead ${TOPIC}-0@2`);
    await produce(1);
    expect(fixture.replicas.offsets(TOPIC, 0).highWatermark).toBe(
      fixture.replicas.offsets(TOPIC, 0).logEndOffset,
    );
  });

  it('ignores an assignment older than the epoch it applied', async () => {
    await reassign({ leaderEpoch: 3 });
    expect(leadership).toEqual([`lead ${TOPIC}-0@0`, `lead ${TOPIC}-0@3`]);
    // A stale controller's write: epoch 1 with another leader changes nothing here.
    await reassign({ leader: ANOTHER_BROKER, leaderEpoch: 1 });
    expect(leadership).toHaveLength(2);
    expect((await produce(1)).baseOffset).toBe(0);
  });

  it("checks a fetch's current leader epoch: older is FENCED_LEADER_EPOCH, newer UNKNOWN_LEADER_EPOCH", async () => {
    await produce(1);
    await reassign({ leaderEpoch: 4 });
    const signal = new AbortController().signal;
    const codes = [];
    for (const epoch of [-1, 3, 4, 5]) {
      const [result] = await fixture.replicas.fetch(fetchRequest({}, epoch), signal);
      codes.push(result!.errorCode);
    }
    expect(codes).toEqual([
      ErrorCode.NONE,
      ErrorCode.FENCED_LEADER_EPOCH,
      ErrorCode.NONE,
      ErrorCode.UNKNOWN_LEADER_EPOCH,
    ]);
    await expect(
      fixture.replicas.listOffset({ topic: TOPIC, partition: 0, timestampMs: -1, currentLeaderEpoch: 3 }),
    ).rejects.toMatchObject({ code: ErrorCode.FENCED_LEADER_EPOCH });
  });

  it('refuses a coordinator write from an epoch it no longer leads at', async () => {
    await reassign({ leaderEpoch: 2 });
    const batch = makeBatch();
    await expect(
      fixture.replicas.appendAsCoordinator(TOPIC, 0, batch, { leaderEpoch: 1, durable: true }),
    ).rejects.toMatchObject({ code: ErrorCode.FENCED_LEADER_EPOCH });
    await expect(
      fixture.replicas.appendAsCoordinator(TOPIC, 0, makeBatch(), { leaderEpoch: 2, durable: true }),
    ).resolves.toMatchObject({ baseOffset: 0 });
  });

  it('refuses a transactional batch whose transaction ended while the coordinator was being asked', async () => {
    await fixture.stop();
    await directory.cleanup();
    directory = await temporaryDirectory('weir-replicas-');
    // The coordinator's answer is held until the marker of the transaction's end is written.
    let answer!: (verdict: 'member') => void;
    const answered = new Promise<'member'>((resolve) => {
      answer = resolve;
    });
    fixture = await startReplicas(directory.path, { transactions: { membership: () => answered } });
    await fixture.topics.createTopic({ name: TOPIC, partitionCount: 1, configs: {} });
    const producer = { producerId: 11n, producerEpoch: 0 };
    const transactional = fixture.replicas.appendRecords({
      topic: TOPIC,
      partition: 0,
      records: encodeRecordBatch({
        records: [{ key: null, value: Buffer.from('late'), timestampMs: 0 }],
        ...producer,
        baseSequence: 0,
        isTransactional: true,
      }),
      acks: 1,
      timeoutMs: 1000,
      transactionalId: 'tx',
    });
    await fixture.replicas.appendTransactionMarker(
      TOPIC,
      0,
      encodeTransactionMarkerBatch({ type: 'commit', coordinatorEpoch: 0, timestampMs: 0, ...producer }),
    );
    answer('member');
    await expect(transactional).rejects.toMatchObject({ code: ErrorCode.INVALID_TXN_STATE });
    // Only the marker is in the log, and no transaction hangs open.
    expect(fixture.replicas.offsets(TOPIC, 0)).toMatchObject({ logEndOffset: 1, lastStableOffset: 1 });
  });

  describe('transactional batches', () => {
    const producer = { producerId: 11n, producerEpoch: 0 };
    let asked: number;
    let answers: ((verdict: 'member') => void)[];

    /** Restarts the fixture with a coordinator that counts its questions and answers when told. */
    async function withHeldCoordinator(): Promise<void> {
      await fixture.stop();
      await directory.cleanup();
      directory = await temporaryDirectory('weir-replicas-');
      asked = 0;
      answers = [];
      fixture = await startReplicas(directory.path, {
        transactions: {
          membership: () => {
            asked += 1;
            return new Promise((resolve) => answers.push(resolve));
          },
        },
      });
      await fixture.topics.createTopic({ name: TOPIC, partitionCount: 1, configs: {} });
    }

    function produceTransactional(baseSequence: number) {
      return fixture.replicas.appendRecords({
        topic: TOPIC,
        partition: 0,
        records: encodeRecordBatch({
          records: [{ key: null, value: Buffer.from(`v${baseSequence}`), timestampMs: 0 }],
          ...producer,
          baseSequence,
          isTransactional: true,
        }),
        acks: 1,
        timeoutMs: 1000,
        transactionalId: 'tx',
      });
    }

    function commitMarker() {
      return fixture.replicas.appendTransactionMarker(
        TOPIC,
        0,
        encodeTransactionMarkerBatch({ type: 'commit', coordinatorEpoch: 0, timestampMs: 0, ...producer }),
      );
    }

    async function answerNext(): Promise<void> {
      await pollUntil(() => answers.length > 0, 'a question to the coordinator');
      answers.shift()!('member');
    }

    it('asks the coordinator about the first batch of a transaction only, and again after its marker', async () => {
      await withHeldCoordinator();
      // Pipelined: the second batch waits behind the first one's question and is not asked itself.
      const first = produceTransactional(0);
      const second = produceTransactional(1);
      await answerNext();
      await expect(first).resolves.toMatchObject({ baseOffset: 0 });
      await expect(second).resolves.toMatchObject({ baseOffset: 1 });
      await expect(produceTransactional(2)).resolves.toMatchObject({ baseOffset: 2 });
      expect(asked).toBe(1);

      await commitMarker();
      const next = produceTransactional(3);
      await answerNext();
      await expect(next).resolves.toMatchObject({ baseOffset: 4 });
      expect(asked).toBe(2);
    });

    it('refuses a batch that was not asked about when its transaction ends just before it is written', async () => {
      await withHeldCoordinator();
      const first = produceTransactional(0);
      await answerNext();
      await first;
      // The marker is queued before the batch, which finds the transaction open and is not asked.
      const marker = commitMarker();
      const late = produceTransactional(1);
      await expect(late).rejects.toMatchObject({ code: ErrorCode.INVALID_TXN_STATE });
      await marker;
      expect(asked).toBe(1);
      expect(fixture.replicas.offsets(TOPIC, 0)).toMatchObject({ logEndOffset: 2, lastStableOffset: 2 });
    });
  });

  it('deletes the logs of a deleted topic, and a topic created again under its name starts empty', async () => {
    await produce(1);
    await fixture.topics.deleteTopic(TOPIC);
    expect(leadership.at(-1)).toBe(`resign ${TOPIC}-0`);
    await expect(produce(1)).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    expect(fixture.replicas.localReplica(TOPIC, 0)).toBeUndefined();
    await fixture.topics.createTopic({ name: TOPIC, partitionCount: 1, configs: {} });
    expect(fixture.replicas.offsets(TOPIC, 0)).toMatchObject({ logEndOffset: 0, highWatermark: 0 });
  });

  it('applies every change of a burst delivered in one turn, the last one included', async () => {
    const current = fixture.view.assignment(TOPIC, 0)!;
    const revision = fixture.view.revision;
    // Committed batches in the same turn of the event loop, as a watch replays them after a reconnect:
    // the first starts a pass that finds nothing to do, the last must still be applied.
    fixture.view.apply([{ kind: 'controller', controllerId: 0 }], revision + 1);
    fixture.view.apply(
      [
        {
          kind: 'assignment',
          topic: TOPIC,
          partition: 0,
          assignment: {
            ...current,
            replicas: [0, ANOTHER_BROKER],
            leader: ANOTHER_BROKER,
            leaderEpoch: current.leaderEpoch + 1,
            isr: [0, ANOTHER_BROKER],
          },
        },
      ],
      revision + 2,
    );
    await pollUntil(
      () => fixture.replicas.localReplica(TOPIC, 0)?.role === 'follower',
      'the partition to take the last assignment of the burst',
      { timeoutMs: 2000, intervalMs: 10 },
    );
  });
});
