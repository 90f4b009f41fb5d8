import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { groupOn, ManualScheduler, settle, track, unledGroupCoordinator } from '../../test/group-fixtures';
import {
  MemoryTransactionStore,
  storedTransaction,
  TEST_TRANSACTION_CONFIG,
  type TransactionFixture,
  unledTransactionCoordinator,
} from '../../test/txn-memory-fixtures';
import { partitionForKey } from '../coordination/partition-for-key';
import type { ProducerClaim } from './coordinator-types';
import type { TransactionMembershipQuery } from './transaction-contracts';
import type { TransactionCoordinator } from './transaction-coordinator';

/** A transaction coordinator and a group coordinator that both lead nothing yet, on one clock. */
function unledCoordinators(store?: MemoryTransactionStore) {
  const scheduler = new ManualScheduler();
  const groups = unledGroupCoordinator({ scheduler });
  const txn = unledTransactionCoordinator({ scheduler, groups: groups.coordinator, store });
  return { scheduler, groups, txn };
}

/** A transactional id that hashes to `partition` of the store's topic. */
function idOn(store: MemoryTransactionStore, partition: number, prefix = 'tx'): string {
  for (let index = 0; ; index++) {
    const transactionalId = `${prefix}-${index}`;
    if (partitionForKey(transactionalId, store.partitionCount) === partition) return transactionalId;
  }
}

/** Gains `partition` and lets its replay finish. */
async function lead(
  fx: {
    coordinator: { onBecomeLeader(p: number, e: number): Promise<void> };
    source: TransactionFixture['source'];
  },
  partition: number,
  leaderEpoch = 0,
): Promise<void> {
  const loaded = fx.coordinator.onBecomeLeader(partition, leaderEpoch);
  await settle();
  fx.source.release(partition);
  await loaded;
}

/** InitProducerId, AddPartitionsToTxn(t0-0): a claim with an ongoing transaction. */
async function openTransaction(
  coordinator: TransactionCoordinator,
  transactionalId: string,
): Promise<ProducerClaim> {
  const init = await coordinator.initProducerId(transactionalId, 60_000);
  expect(init.errorCode).toBe(ErrorCode.NONE);
  const claim = { transactionalId, producerId: init.producerId, producerEpoch: init.producerEpoch };
  const added = await coordinator.addPartitions(claim, [{ topic: 't0', partition: 0 }]);
  expect([...added.values()]).toEqual([ErrorCode.NONE]);
  return claim;
}

const unknownClaim = (transactionalId: string) => ({ transactionalId, producerId: 77n, producerEpoch: 0 });

/** One request of every kind, with what a served shard answers for an id it does not know. */
const REQUESTS: readonly [
  string,
  (coordinator: TransactionCoordinator, id: string) => Promise<number>,
  number,
][] = [
  ['InitProducerId', async (c, id) => (await c.initProducerId(id, 60_000)).errorCode, ErrorCode.NONE],
  [
    'AddPartitionsToTxn',
    async (c, id) =>
      [...(await c.addPartitions(unknownClaim(id), [{ topic: 't0', partition: 0 }])).values()][0]!,
    ErrorCode.INVALID_PRODUCER_ID_MAPPING,
  ],
  ['AddOffsetsToTxn', (c, id) => c.addOffsets(unknownClaim(id), 'g'), ErrorCode.INVALID_PRODUCER_ID_MAPPING],
  [
    'TxnOffsetCommit',
    async (c, id) =>
      (
        await c.stageOffsets(unknownClaim(id), 'g', [
          { name: 't0', partitions: [{ partitionIndex: 0, offset: 1, leaderEpoch: -1, metadata: null }] },
        ])
      )[0]!.partitions[0]!.errorCode,
    ErrorCode.INVALID_PRODUCER_ID_MAPPING,
  ],
  ['EndTxn', (c, id) => c.endTransaction(unknownClaim(id), 'commit'), ErrorCode.INVALID_PRODUCER_ID_MAPPING],
  ['DescribeTransactions', async (c, id) => c.describe(id).errorCode, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND],
  [
    'abort by an operator',
    (c, id) => c.abortByOperator(id, 'admin', 'stuck'),
    ErrorCode.TRANSACTIONAL_ID_NOT_FOUND,
  ],
];

describe('transaction coordinator shards', () => {
  it.each(REQUESTS)(
    '%s: NOT_COORDINATOR unled, COORDINATOR_LOAD_IN_PROGRESS while loading, served, NOT_COORDINATOR after resign',
    async (_name, request, served) => {
      const { txn } = unledCoordinators();
      const transactionalId = idOn(txn.store, 1);
      expect(await request(txn.coordinator, transactionalId)).toBe(ErrorCode.NOT_COORDINATOR);

      const loaded = track(txn.coordinator.onBecomeLeader(1, 0));
      await settle();
      expect(await request(txn.coordinator, transactionalId)).toBe(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
      expect(txn.coordinator.readiness()).toEqual({ ok: false, detail: 'loading' });
      expect(loaded.done).toBe(false);

      txn.source.release(1);
      await txn.coordinator.whenLoaded();
      await settle();
      expect(loaded.done).toBe(true);
      expect(await request(txn.coordinator, transactionalId)).toBe(served);
      expect(await request(txn.coordinator, idOn(txn.store, 2))).toBe(ErrorCode.NOT_COORDINATOR);
      expect(txn.coordinator.readiness()).toEqual({ ok: true, detail: 'transactions loaded' });

      txn.coordinator.onResign(1);
      expect(await request(txn.coordinator, transactionalId)).toBe(ErrorCode.NOT_COORDINATOR);
    },
  );

  it('answers the membership check by transactional id or by producer id, and "unavailable" while the shard is not served', async () => {
    const { txn } = unledCoordinators();
    const transactionalId = idOn(txn.store, 0);
    const ask = (query: Partial<TransactionMembershipQuery>) =>
      txn.coordinator.membership({
        transactionalId,
        producerId: claim.producerId,
        producerEpoch: claim.producerEpoch,
        topic: 't0',
        partition: 0,
        ...query,
      });
    let claim: ProducerClaim = unknownClaim(transactionalId);

    const loading = txn.coordinator.onBecomeLeader(0, 0);
    await settle();
    expect(await ask({})).toBe('unavailable');
    expect(await ask({ transactionalId: null })).toBe('unavailable');
    txn.source.release(0);
    await loading;

    claim = await openTransaction(txn.coordinator, transactionalId);
    const cases: [Partial<TransactionMembershipQuery>, string][] = [
      [{}, 'member'],
      [{ transactionalId: null }, 'member'],
      [{ partition: 1 }, 'not-member'],
      [{ transactionalId: null, partition: 1 }, 'not-member'],
      [{ producerEpoch: claim.producerEpoch - 1 }, 'fenced'],
      [{ producerId: claim.producerId + 1n }, 'not-member'],
      [{ transactionalId: null, producerId: claim.producerId + 1n }, 'not-member'],
    ];
    for (const [query, expected] of cases) expect([query, await ask(query)]).toEqual([query, expected]);

    txn.coordinator.onResign(0);
    expect(await ask({})).toBe('unavailable');
    // Without an id, and no shard that could hold the producer: it is in no transaction here.
    expect(await ask({ transactionalId: null })).toBe('not-member');
  });

  it('installs nothing from a load overtaken by onResign', async () => {
    const scheduler = new ManualScheduler();
    const store = new MemoryTransactionStore();
    const transactionalId = idOn(store, 2);
    store.partitions[2]!.push({
      transactionalId,
      value: storedTransaction(transactionalId, 'Ongoing', { nowMs: scheduler.nowMs(), timeoutMs: 1000 }),
    });
    const groups = unledGroupCoordinator({ scheduler });
    const txn = unledTransactionCoordinator({ scheduler, groups: groups.coordinator, store });
    const loading = txn.coordinator.onBecomeLeader(2, 1);
    await settle();
    txn.coordinator.onResign(2);
    txn.source.release(2);
    await loading;

    expect(txn.openCounts).toEqual([]);
    expect(txn.coordinator.describe(transactionalId).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
    expect(txn.coordinator.list()).toEqual({ errorCode: ErrorCode.NONE, transactions: [] });
    // An installed transaction past its timeout would be aborted by the timers.
    scheduler.advance(TEST_TRANSACTION_CONFIG.abortTimedOutCheckIntervalMs);
    await settle();
    expect(txn.markers.requests).toEqual([]);
    expect(store.writes).toEqual([]);

    await lead(txn, 2, 2);
    expect(txn.openCounts).toEqual([1]);
    expect(txn.coordinator.describe(transactionalId).view?.state).toBe('Ongoing');
  });

  it('installs only the newest epoch when a newer onBecomeLeader overtakes a load', async () => {
    const { scheduler, txn } = unledCoordinators();
    const transactionalId = idOn(txn.store, 0);
    const nowMs = scheduler.nowMs();
    txn.store.partitions[0]!.push({
      transactionalId,
      value: storedTransaction(transactionalId, 'Ongoing', { nowMs }),
    });
    const first = txn.coordinator.onBecomeLeader(0, 1);
    await settle();
    // Another leader ended the transaction meanwhile; this broker is elected again.
    txn.store.partitions[0]!.push({
      transactionalId,
      value: storedTransaction(transactionalId, 'CompleteAbort', { nowMs, producerEpoch: 1 }),
    });
    const second = txn.coordinator.onBecomeLeader(0, 2);
    txn.source.release(0);
    await first;
    await settle();
    expect(txn.coordinator.describe(transactionalId).errorCode).toBe(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
    expect(txn.openCounts).toEqual([]);
    txn.source.release(0);
    await second;

    expect(txn.coordinator.describe(transactionalId).view).toMatchObject({
      state: 'CompleteAbort',
      producerEpoch: 1,
    });
    expect(txn.openCounts).toEqual([]);
    expect((await txn.coordinator.initProducerId(transactionalId, 60_000)).producerEpoch).toBe(2);
    expect(txn.store.writes).toEqual([{ partition: 0, leaderEpoch: 2, states: ['Empty'] }]);
  });

  it('writes markers and records with the shard epoch and ignores an older epoch', async () => {
    const { txn } = unledCoordinators();
    const transactionalId = idOn(txn.store, 1);
    await lead(txn, 1, 9);
    await txn.coordinator.onBecomeLeader(1, 4);
    expect(txn.logs).toContain('ignored becoming leader with an older leader epoch');

    const claim = await openTransaction(txn.coordinator, transactionalId);
    expect(await txn.coordinator.endTransaction(claim, 'commit')).toBe(ErrorCode.NONE);
    expect(txn.markers.requests).toEqual([
      expect.objectContaining({
        result: 'commit',
        coordinatorEpoch: 9,
        partitions: [{ topic: 't0', partition: 0 }],
      }),
    ]);
    expect(new Set(txn.store.writes.map((write) => `${write.partition}@${write.leaderEpoch}`))).toEqual(
      new Set(['1@9']),
    );
    expect(txn.source.started).toEqual([{ partition: 1, leaderEpoch: 9 }]);
  });

  it("completes a shard's prepared transactions after its load, waiting for the group's shard without a retry", async () => {
    const { scheduler, groups, txn } = unledCoordinators();
    const groupPartition = 1;
    const groupId = groupOn(groups.coordinator, groupPartition);
    const transactionalId = idOn(txn.store, 2);
    txn.store.partitions[2]!.push({
      transactionalId,
      value: storedTransaction(transactionalId, 'PrepareCommit', {
        nowMs: scheduler.nowMs(),
        offsets: groupId,
      }),
    });
    const groupLoad = groups.coordinator.onBecomeLeader(groupPartition, 0);
    await lead(txn, 2, 6);
    await settle();

    // The markers are written; the offsets wait for the group's partition to load.
    expect(txn.markers.requests).toEqual([
      expect.objectContaining({ result: 'commit', coordinatorEpoch: 6 }),
    ]);
    expect(txn.coordinator.readiness()).toEqual({
      ok: false,
      detail: 'completing 1 transactions prepared before the restart',
    });
    const claim = { transactionalId, producerId: 1n, producerEpoch: 0 };
    expect(await txn.coordinator.endTransaction(claim, 'commit')).toBe(ErrorCode.CONCURRENT_TRANSACTIONS);

    groups.source.release(groupPartition);
    await groupLoad;
    await txn.coordinator.whenRecovered();
    expect(txn.coordinator.describe(transactionalId).view?.state).toBe('CompleteCommit');
    expect(
      groups.coordinator.fetchOffsets(groupId, [{ name: 't0', partitionIndexes: [0] }]).topics[0]!
        .partitions[0]!.committedOffset,
    ).toBe(42);
    expect(txn.logs).not.toContain('completing a transaction failed; retrying');
    expect(txn.coordinator.readiness()).toEqual({ ok: true, detail: 'transactions loaded' });
    expect(txn.store.writes).toEqual([{ partition: 2, leaderEpoch: 6, states: ['CompleteCommit'] }]);
  });

  it('times out transactions of active shards only', async () => {
    const { scheduler, txn } = unledCoordinators();
    const nowMs = scheduler.nowMs();
    const active = idOn(txn.store, 0, 'active');
    const loading = idOn(txn.store, 1, 'loading');
    for (const [partition, transactionalId] of [
      [0, active],
      [1, loading],
    ] as const) {
      txn.store.partitions[partition]!.push({
        transactionalId,
        value: storedTransaction(transactionalId, 'Ongoing', { nowMs, timeoutMs: 1000 }),
      });
    }
    await lead(txn, 0, 3);
    const loaded = txn.coordinator.onBecomeLeader(1, 8);
    await settle();

    scheduler.advance(TEST_TRANSACTION_CONFIG.abortTimedOutCheckIntervalMs);
    await settle();
    expect(txn.markers.requests.map((request) => [request.result, request.coordinatorEpoch])).toEqual([
      ['abort', 3],
    ]);
    expect(txn.coordinator.describe(active).view?.state).toBe('CompleteAbort');
    txn.source.release(1);
    await loaded;
    expect(txn.coordinator.describe(loading).view?.state).toBe('Ongoing');

    scheduler.advance(TEST_TRANSACTION_CONFIG.abortTimedOutCheckIntervalMs);
    await settle();
    expect(txn.coordinator.describe(loading).view?.state).toBe('CompleteAbort');
    expect(txn.markers.requests.at(-1)).toMatchObject({ result: 'abort', coordinatorEpoch: 8 });
  });
});

describe('before __transaction_state exists', () => {
  it('treats every id as unknown until the first InitProducerId creates the topic, whose partitions it then leads', async () => {
    const { txn } = unledCoordinators(new MemoryTransactionStore(0, 2));
    // The replica layer tells the coordinator it leads the new partitions once they exist.
    txn.store.onCreated = (partitionCount) => {
      for (let partition = 0; partition < partitionCount; partition++)
        void txn.coordinator.onBecomeLeader(partition, 0);
    };
    expect(txn.coordinator.describe('tx').errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
    expect(txn.coordinator.list()).toEqual({ errorCode: ErrorCode.NONE, transactions: [] });
    expect(
      await txn.coordinator.membership({
        transactionalId: 'tx',
        producerId: 1n,
        producerEpoch: 0,
        topic: 't0',
        partition: 0,
      }),
    ).toBe('not-member');

    // The new partitions are empty; their replays are released as they start.
    const init = track(txn.coordinator.initProducerId('tx', 60_000));
    for (let round = 0; round < 5 && !init.done; round++) {
      await settle();
      for (const partition of [0, 1]) if (txn.source.heldCount(partition) > 0) txn.source.release(partition);
    }
    expect(init.value?.errorCode).toBe(ErrorCode.NONE);
    expect(txn.store.partitionCount).toBe(2);
    expect(txn.source.started).toEqual([
      { partition: 0, leaderEpoch: 0 },
      { partition: 1, leaderEpoch: 0 },
    ]);
    expect(txn.coordinator.describe('tx').view?.state).toBe('Empty');
  });
});
