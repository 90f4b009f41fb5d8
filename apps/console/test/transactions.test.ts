import { TRPCError } from '@trpc/server';
import { Client, Consumer, TransactionalProducer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import { openApiDocument } from '../src/server/api/openapi';
import { createCaller } from '../src/server/api/root';
import { createContextInner } from '../src/server/api/trpc';
import { type GatewayFixture, rejection, startGateway, until } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/*
 * The transactions router against a real broker: one transaction is left open (begin + send, no
 * commit) on two partitions of one topic, one is committed on another, and the gateway is asked
 * about them through createCaller (and once through REST).
 */

const OPEN_TOPIC = 'txn-open-topic';
const COMMITTED_TOPIC = 'txn-committed-topic';
const OPEN_ID = 'open-txn';
const COMMITTED_ID = 'committed-txn';
const TIMEOUT_MS = 60_000;
const LAG_GROUP = 'txn-lag-group';

let gateway: GatewayFixture;
let client: Client;
let openProducer: TransactionalProducer;
let committedProducer: TransactionalProducer;

async function trpcError(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

beforeAll(async () => {
  gateway = await startGateway();
  client = new Client({ bootstrapServers: [gateway.broker.bootstrap], clientId: 'transactions-test' });
  await gateway.caller.topics.create({ name: OPEN_TOPIC, partitions: 2 });
  await gateway.caller.topics.create({ name: COMMITTED_TOPIC, partitions: 1 });
  // A committed record before the open transaction, so the LSO is not simply 0.
  await gateway.caller.messages.produce({
    topic: OPEN_TOPIC,
    partition: 0,
    value: { encoding: 'utf8', data: 'before' },
  });

  committedProducer = new TransactionalProducer(client, { transactionalId: COMMITTED_ID });
  await committedProducer.initTransactions();
  committedProducer.beginTransaction();
  await committedProducer.send({ topic: COMMITTED_TOPIC, messages: [{ value: 'c1' }, { value: 'c2' }] });
  // Offsets committed in the transaction give a group to measure transaction-aware lag with.
  await committedProducer.sendOffsets(LAG_GROUP, [
    { topic: OPEN_TOPIC, partition: 0, offset: 0n },
    { topic: OPEN_TOPIC, partition: 1, offset: 0n },
  ]);
  await committedProducer.commitTransaction();

  openProducer = new TransactionalProducer(client, {
    transactionalId: OPEN_ID,
    transactionTimeoutMs: TIMEOUT_MS,
  });
  await openProducer.initTransactions();
  openProducer.beginTransaction();
  await openProducer.send({
    topic: OPEN_TOPIC,
    messages: [
      { value: 'open-0', partition: 0 },
      { value: 'open-1', partition: 1 },
      { value: 'open-1b', partition: 1 },
    ],
  });
});

afterAll(async () => {
  await openProducer?.close();
  await committedProducer?.close();
  await client?.close();
  await gateway?.dispose();
});

describe('transactions.list', () => {
  it('lists the open transaction with producer, partitions and age, and the committed one by state', async () => {
    const all = await gateway.caller.transactions.list({ sortBy: 'id', offset: 0, limit: 50 });
    const open = all.transactions.find((row) => row.transactionalId === OPEN_ID);
    const committed = all.transactions.find((row) => row.transactionalId === COMMITTED_ID);
    expect(open).toMatchObject({
      state: 'Ongoing',
      open: true,
      partitionCount: 2,
      topics: [OPEN_TOPIC],
      timeoutMs: TIMEOUT_MS,
      hanging: false,
    });
    expect(open?.producerId).toMatch(/^\d+$/);
    expect(open?.ageMs).toBeGreaterThanOrEqual(0);
    expect(open?.startTimeMs).toBeLessThanOrEqual(all.asOfMs);
    expect(committed).toMatchObject({ state: 'CompleteCommit', open: false, ageMs: null, hanging: false });
    expect(all.stateCounts).toMatchObject({ Ongoing: 1, CompleteCommit: 1 });
    expect(all.openCount).toBe(1);

    const onlyOpen = await gateway.caller.transactions.list({
      openOnly: true,
      sortBy: 'age',
      offset: 0,
      limit: 50,
    });
    expect(onlyOpen.transactions.map((row) => row.transactionalId)).toEqual([OPEN_ID]);
    const byState = await gateway.caller.transactions.list({
      state: 'CompleteCommit',
      sortBy: 'age',
      offset: 0,
      limit: 50,
    });
    expect(byState.transactions.map((row) => row.transactionalId)).toEqual([COMMITTED_ID]);
    const searched = await gateway.caller.transactions.list({
      search: 'COMMITTED',
      sortBy: 'age',
      offset: 0,
      limit: 50,
    });
    expect(searched.totalCount).toBe(1);
  });

  it('sorts by age, open transactions (oldest first) above the ones without an age', async () => {
    const list = await gateway.caller.transactions.list({ sortBy: 'age', offset: 0, limit: 50 });
    expect(list.transactions[0]?.transactionalId).toBe(OPEN_ID);
    const ascending = await gateway.caller.transactions.list({
      sortBy: 'age',
      descending: false,
      offset: 0,
      limit: 50,
    });
    expect(ascending.transactions.at(-1)?.transactionalId).toBe(OPEN_ID);
  });

  it('calls a transaction open longer than its timeout hanging', async () => {
    // The same broker read through a clock ten minutes ahead: the open transaction is past its
    // 60 s timeout there, while the broker's own timeout check has not run.
    const later = createCaller(
      createContextInner({ services: { ...gateway.services, now: () => Date.now() + 10 * 60_000 } }),
    );
    const hanging = await later.transactions.list({ hangingOnly: true, sortBy: 'age', offset: 0, limit: 50 });
    expect(hanging.transactions.map((row) => row.transactionalId)).toEqual([OPEN_ID]);
    expect(hanging.transactions[0]?.ageMs).toBeGreaterThan(TIMEOUT_MS);
    expect(hanging.hangingCount).toBe(1);
    const now = await gateway.caller.transactions.list({
      hangingOnly: true,
      sortBy: 'age',
      offset: 0,
      limit: 50,
    });
    expect(now.transactions).toEqual([]);
  });
});

describe('transactions.get and topic producers', () => {
  it("shows each partition's first offset, LSO, HWM and gap, and allows the abort", async () => {
    const detail = await gateway.caller.transactions.get({ transactionalId: OPEN_ID });
    expect(detail).toMatchObject({
      state: 'Ongoing',
      allowedActions: { abort: { allowed: true, reason: null, deniedBy: null } },
    });
    expect(detail.partitions).toEqual([
      expect.objectContaining({
        topic: OPEN_TOPIC,
        partition: 0,
        firstOffset: '1',
        lastStableOffset: '1',
        highWatermark: '2',
        gap: '1',
        holdsStableOffset: true,
      }),
      expect.objectContaining({
        topic: OPEN_TOPIC,
        partition: 1,
        firstOffset: '0',
        lastStableOffset: '0',
        highWatermark: '2',
        gap: '2',
        holdsStableOffset: true,
      }),
    ]);
  });

  it('refuses the abort of a transaction that is not open', async () => {
    const committed = await gateway.caller.transactions.get({ transactionalId: COMMITTED_ID });
    expect(committed.allowedActions.abort).toMatchObject({ allowed: false, deniedBy: 'state' });
    expect(committed.partitions).toEqual([]);
    const error = await trpcError(
      gateway.caller.transactions.abort({ transactionalId: COMMITTED_ID, reason: 'not open' }),
    );
    expect(error.code).toBe('PRECONDITION_FAILED');
  });

  it('answers NOT_FOUND for an unknown transactional id', async () => {
    expect((await trpcError(gateway.caller.transactions.get({ transactionalId: 'nobody' }))).code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await trpcError(gateway.caller.transactions.abort({ transactionalId: 'nobody', reason: 'x' }))).code,
    ).toBe('NOT_FOUND');
  });

  it('lists producers per partition with their transactional ids, and the gap on the topic', async () => {
    const producers = await gateway.caller.transactions.topicProducers({ topic: OPEN_TOPIC });
    const partition1 = producers.partitions.find((entry) => entry.partition === 1);
    expect(partition1).toMatchObject({ lastStableOffset: '0', highWatermark: '2', gap: '2' });
    expect(partition1?.producers).toEqual([
      expect.objectContaining({ transactionalId: OPEN_ID, openTransactionFirstOffset: '0', lastSequence: 1 }),
    ]);
    // Partition 0 also holds the console's idempotent producer, which has no transactional id.
    const partition0 = producers.partitions.find((entry) => entry.partition === 0);
    expect(partition0?.producers.map((producer) => producer.transactionalId).sort()).toEqual(
      [OPEN_ID, null].sort(),
    );

    const topic = await gateway.caller.topics.get({ topic: OPEN_TOPIC });
    expect(topic.partitions.map((partition) => partition.stableGap)).toEqual(['1', '2']);
    const missing = await trpcError(gateway.caller.transactions.topicProducers({ topic: 'no-such-topic' }));
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('measures group lag against the last stable offset, not the high watermark', async () => {
    const group = await gateway.caller.groups.get({ groupId: LAG_GROUP });
    expect(
      group.partitions.map((row) => [row.partition, row.logEndOffset, row.lastStableOffset, row.lag]),
    ).toEqual([
      [0, '2', '1', '1'],
      [1, '2', '0', '0'],
    ]);
    expect(group.totalLag).toBe('1');
  });

  it('marks committed records in the message browser, which never shows the COMMIT marker', async () => {
    const page = await gateway.caller.messages.browse({
      topic: COMMITTED_TOPIC,
      start: 'beginning',
      pageSize: 10,
    });
    expect(page.rows.map((row) => [row.offset, row.transactional, row.control, row.transaction])).toEqual([
      ['0', true, false, 'committed'],
      ['1', true, false, 'committed'],
    ]);
    // The marker at offset 2 was read past: the page reached the end.
    expect(page.partitions.map((partition) => partition.nextOffset)).toEqual(['3']);
  });
});

describe('transactions.abort', () => {
  it('needs a reason', async () => {
    const error = await trpcError(
      gateway.caller.transactions.abort({ transactionalId: OPEN_ID, reason: '  ' }),
    );
    expect(error.code).toBe('BAD_REQUEST');
  });

  it('aborts the open transaction: CompleteAbort, the gap closes and read_committed sees none of it', async () => {
    const result = await gateway.caller.transactions.abort({
      transactionalId: OPEN_ID,
      reason: 'router test: producer gone',
    });
    expect(result).toMatchObject({ transactionalId: OPEN_ID, aborted: true, state: 'CompleteAbort' });

    const detail = await gateway.caller.transactions.get({ transactionalId: OPEN_ID });
    expect(detail).toMatchObject({ state: 'CompleteAbort', open: false, ageMs: null });
    expect(detail.producerEpoch).toBe(result.producerEpoch);
    expect(detail.allowedActions.abort.allowed).toBe(false);

    const topic = await gateway.caller.topics.get({ topic: OPEN_TOPIC });
    // ABORT markers went in after the records, and the LSO moved up to the high watermark.
    expect(topic.partitions.map((partition) => [partition.highWatermark, partition.stableGap])).toEqual([
      ['3', '0'],
      ['3', '0'],
    ]);
    const browsed = await gateway.caller.messages.browse({
      topic: OPEN_TOPIC,
      start: 'beginning',
      pageSize: 10,
    });
    expect(browsed.rows.some((row) => row.control)).toBe(false);
    expect(
      browsed.rows
        .filter((row) => row.transaction === 'aborted')
        .map((row) => row.value?.text)
        .sort(),
    ).toEqual(['open-0', 'open-1', 'open-1b']);

    const consumer = new Consumer(client, { isolationLevel: 'read_committed', maxWaitMs: 100 });
    try {
      consumer.assign(
        [0, 1].map((partition) => ({ topic: OPEN_TOPIC, partition, offset: 'earliest' as const })),
      );
      const values: string[] = [];
      await until(async () => {
        for (const record of await consumer.poll())
          values.push(new TextDecoder().decode(record.value ?? new Uint8Array()));
        return consumer.position(OPEN_TOPIC, 0) === 3n && consumer.position(OPEN_TOPIC, 1) === 3n;
      }, 'the read_committed consumer reaches the end of both partitions');
      expect(values).toEqual(['before']);
    } finally {
      await consumer.close();
    }

    const again = await trpcError(
      gateway.caller.transactions.abort({ transactionalId: OPEN_ID, reason: 'twice' }),
    );
    expect(again.code).toBe('PRECONDITION_FAILED');
  });
});

describe('REST /api/v1/transactions', () => {
  it('serves the procedures and documents them', async () => {
    const response = await handleRestRequest(
      new Request('http://console.test/api/v1/transactions?state=CompleteCommit&openOnly=false&limit=5'),
      gateway.services,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { transactions: { transactionalId: string }[] };
    expect(body.transactions.map((row) => row.transactionalId)).toEqual([COMMITTED_ID]);

    const noReason = await handleRestRequest(
      new Request(`http://console.test/api/v1/transactions/${COMMITTED_ID}/abort`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-weir-csrf': '1' },
        body: JSON.stringify({}),
      }),
      gateway.services,
    );
    expect(noReason.status).toBe(400);

    const paths = Object.keys(openApiDocument().paths ?? {});
    expect(paths).toEqual(
      expect.arrayContaining([
        '/transactions',
        '/transactions/{transactionalId}',
        '/transactions/{transactionalId}/abort',
        '/transactions/topics/{topic}/producers',
      ]),
    );
  });
});
