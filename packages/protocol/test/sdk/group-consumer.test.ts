import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it, vi } from 'vitest';
import type { GroupConsumer } from '../../src/client/group/group-consumer';
import { roundRobinAssignor } from '../../src/client/group/round-robin-assignor';
import type { ConsumerRecord } from '../../src/client/message';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { countIdsWhileRunning, partitionsOf, until, useGroupTestKit } from './group-test-kit';

vi.setConfig({ testTimeout: 40_000 });

const kit = useGroupTestKit('group-test');
const member = kit.member;

async function _failure(promise: Promise<unknown>): Promise<WeirError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WeirError);
  return error as WeirError;
}

async function failure(promise: Promise<unknown>): Promise<WeirError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WeirError);
  return error as WeirError;
}

describe('GroupConsumer', () => {
  it('splits a 6-partition topic between two members and rebalances when one closes', async () => {
    await kit.admin.createTopics([{ name: 'split', partitions: 6 }]);
    const revoked: number[][] = [];
    const a = member('split-group', {
      onRevoked: (partitions) => void revoked.push(partitions.map((p) => p.partition)),
    });
    const b = member('split-group');
    a.subscribe(['split']);
    b.subscribe(['split']);
    await until(
      () =>
        a.state === 'running' &&
        b.state === 'running' &&
        a.generationId === b.generationId &&
        partitionsOf(a).length + partitionsOf(b).length === 6,
      'both members assigned',
    );
    expect(partitionsOf(a)).toHaveLength(3);
    expect([...partitionsOf(a), ...partitionsOf(b)].sort()).toEqual([0, 1, 2, 3, 4, 5]);

    await b.close();
    await b.close(); // idempotent
    expect(b.state).toBe('closed');
    await until(
      () => a.state === 'running' && partitionsOf(a).length === 6,
      'the survivor takes every partition',
    );
    expect(revoked.length).toBeGreaterThanOrEqual(1);

    await kit.produceIds('split', [0, 1, 2, 3, 4, 5], 6);
    const seen: ConsumerRecord[] = [];
    await until(async () => {
      seen.push(...(await a.poll({ maxWaitMs: 200 })));
      return seen.length >= 6;
    }, 'records of all six partitions');
    expect(new Set(seen.map((record) => record.partition)).size).toBe(6);
  });

  it('loses no message across repeated rebalances with manual commits after processing', async () => {
    const topic = 'no-loss';
    const total = 600;
    await kit.admin.createTopics([{ name: topic, partitions: 6 }]);
    const seen = new Map<number, number>();
    let stop = false;
    const run = (consumer: GroupConsumer): Promise<void> =>
      countIdsWhileRunning(consumer, topic, seen, () => stop);
    const first = member('no-loss-group');
    const loops = [run(first)];
    let nextId = 0;
    for (let round = 0; round < 4; round++) {
      await kit.produceIds(
        topic,
        Array.from({ length: total / 4 }, () => nextId++),
        6,
      );
      const extra = member('no-loss-group');
      loops.push(run(extra));
      await until(() => extra.state === 'running', 'the newcomer joined');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await extra.close();
    }
    await until(() => seen.size === total, `all ${total} ids (have ${seen.size})`, 30_000);
    stop = true;
    await Promise.all(loops);
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, id) => id));
    await first.close();
    const committed = await kit.admin.fetchOffsets('no-loss-group');
    expect(committed.reduce((sum, entry) => sum + entry.offset, 0n)).toBe(BigInt(total));
  });

  it('resumes from committed offsets in a new consumer, and admin lag is produced minus committed', async () => {
    const topic = 'resume';
    await kit.admin.createTopics([{ name: topic, partitions: 2 }]);
    await kit.produceIds(topic, [0, 1, 2, 3, 4, 5], 2);
    const first = member('resume-group');
    first.subscribe([topic]);
    const read: string[] = [];
    await until(async () => {
      read.push(...(await first.poll({ maxWaitMs: 200 })).map((record) => record.value!.toString()));
      return read.length >= 6;
    }, 'the first six');
    await first.commit();
    await first.close();
    await kit.produceIds(topic, [6, 7, 8, 9], 2);

    const lag = await kit.admin.groupLag('resume-group');
    expect(lag).toEqual([
      { topic, partition: 0, committedOffset: 3n, logEndOffset: 5n, lag: 2n },
      { topic, partition: 1, committedOffset: 3n, logEndOffset: 5n, lag: 2n },
    ]);

    const second = member('resume-group', { autoCommit: true, autoCommitIntervalMs: 50 });
    second.subscribe([topic]);
    const rest: string[] = [];
    for await (const record of second) {
      rest.push(record.value!.toString());
      if (rest.length === 4) break;
    }
    expect(rest.sort()).toEqual(['6', '7', '8', '9']);
    await second.close(); // auto commit stores the last positions on close
    expect((await kit.admin.groupLag('resume-group')).map((entry) => entry.lag)).toEqual([0n, 0n]);
  });

  it('rejects a commit of an ended generation locally and leaves the committed offset alone', async () => {
    const topic = 'stale';
    await kit.admin.createTopics([{ name: topic, partitions: 2 }]);
    await kit.produceIds(topic, [0, 1, 2, 3], 2);
    const a = member('stale-group');
    a.subscribe([topic]);
    const records: ConsumerRecord[] = [];
    await until(async () => {
      records.push(...(await a.poll({ maxWaitMs: 200 })));
      return records.length >= 4;
    }, 'four records');
    await a.commit([{ topic, partition: 0, offset: 1n }]);
    const stale = a.processedOffsets();
    const oldGeneration = a.generationId;
    const b = member('stale-group');
    b.subscribe([topic]);
    await until(
      () => a.state === 'running' && a.generationId > oldGeneration && b.state === 'running',
      'the next generation',
    );
    const error = await failure(a.commit(stale));
    expect(error.code).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    const committed = await kit.admin.fetchOffsets('stale-group');
    expect(committed.find((entry) => entry.partition === 0)?.offset).toBe(1n);
    expect(committed.find((entry) => entry.partition === 1)).toBeUndefined();
  });

  it('fails poll naming the partition when autoOffsetReset is none and nothing is committed', async () => {
    await kit.admin.createTopics([{ name: 'no-reset', partitions: 1 }]);
    const consumer = member('no-reset-group', { autoOffsetReset: 'none' });
    consumer.subscribe(['no-reset']);
    await consumer.waitForState('running');
    const error = await failure(consumer.poll({ maxWaitMs: 100 }));
    expect(error.message).toContain('no-reset-0');
  });

  it('pauses and resumes partitions and seeks', async () => {
    await kit.admin.createTopics([{ name: 'pausing', partitions: 2 }]);
    await kit.produceIds('pausing', [0, 1, 2, 3], 2);
    const consumer = member('pausing-group');
    consumer.subscribe(['pausing']);
    await consumer.waitForState('running');
    consumer.pause([{ topic: 'pausing', partition: 1 }]);
    const first: ConsumerRecord[] = [];
    await until(async () => {
      first.push(...(await consumer.poll({ maxWaitMs: 100 })));
      return first.length >= 2;
    }, 'partition 0');
    expect(first.every((record) => record.partition === 0)).toBe(true);
    consumer.resume([{ topic: 'pausing', partition: 1 }]);
    consumer.seek('pausing', 0, 1);
    const second: ConsumerRecord[] = [];
    await until(async () => {
      second.push(...(await consumer.poll({ maxWaitMs: 100 })));
      return second.length >= 3;
    }, 'partition 1 and the re-read');
    expect(second.map((record) => `${record.partition}:${record.offset}`).sort()).toEqual([
      '0:1',
      '1:0',
      '1:1',
    ]);
  });
});

describe('GroupConsumer with kafkajs in one group', () => {
  const kafkaOf = () =>
    new Kafka({ clientId: 'mixed', brokers: [kit.broker.bootstrap], logLevel: logLevel.NOTHING });

  it('gets INCONSISTENT_GROUP_PROTOCOL unless both share an assignor name', async () => {
    await kit.admin.createTopics([{ name: 'mixed', partitions: 4 }]);
    for (const shared of [false, true]) {
      const groupId = shared ? 'mixed-shared' : 'mixed-apart';
      const kafkajs = kafkaOf().consumer({
        groupId,
        sessionTimeout: 6000,
        heartbeatInterval: 200,
        maxWaitTimeInMs: 100,
      });
      await kafkajs.connect();
      await kafkajs.subscribe({ topics: ['mixed'], fromBeginning: true });
      await kafkajs.run({ eachMessage: async () => {} });
      try {
        await until(
          async () => (await kit.admin.describeGroups([groupId]))[0]?.state === 'Stable',
          'the kafkajs member',
        );
        const sdk = member(groupId, {
          // kafkajs's default assignor is named "RoundRobinAssigner"; "roundrobin" is librdkafka's name.
          assignors: [shared ? { ...roundRobinAssignor, name: 'RoundRobinAssigner' } : roundRobinAssignor],
        });
        sdk.subscribe(['mixed']);
        if (!shared) {
          const error = await failure(sdk.waitForState('running'));
          expect(error.code).toBe(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
          expect((await failure(sdk.poll({ maxWaitMs: 10 }))).code).toBe(
            ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
          );
        } else {
          await until(
            () => sdk.state === 'running' && partitionsOf(sdk).length === 2,
            'half of the partitions',
          );
          const [group] = await kit.admin.describeGroups([groupId]);
          expect(group!.protocol).toBe('RoundRobinAssigner');
          expect(group!.members).toHaveLength(2);
        }
        await sdk.close();
      } finally {
        await kafkajs.disconnect();
      }
    }
  });
});

describe('Admin: groups', () => {
  it('lists, describes, resets (dry run and for real) and deletes a group', async () => {
    const topic = 'admin-groups';
    await kit.admin.createTopics([{ name: topic, partitions: 2 }]);
    await kit.produceIds(topic, [0, 1, 2, 3, 4, 5], 2);
    const consumer = member('admin-group');
    consumer.subscribe([topic]);
    await consumer.waitForState('running');
    expect((await kit.admin.listGroups()).map((group) => group.groupId)).toContain('admin-group');
    const [described] = await kit.admin.describeGroups(['admin-group']);
    expect(described).toMatchObject({ state: 'Stable', protocolType: 'consumer', protocol: 'range' });
    expect(described!.members[0]).toMatchObject({
      memberId: consumer.memberId,
      clientId: 'group-test',
      topics: [topic],
      assignment: [{ topic, partitions: [0, 1] }],
    });
    await consumer.commit([
      { topic, partition: 0, offset: 1n },
      { topic, partition: 1, offset: 2n },
    ]);
    const refused = await failure(kit.admin.resetOffsets('admin-group', 'earliest'));
    expect(refused.code).toBe(ErrorCode.NON_EMPTY_GROUP);
    await consumer.close();

    const plan = await kit.admin.resetOffsets('admin-group', { shiftBy: 1 }, { dryRun: true });
    expect(plan).toEqual([
      { topic, partition: 0, currentOffset: 1n, newOffset: 2n, requestedOffset: 2n, clamped: null },
      { topic, partition: 1, currentOffset: 2n, newOffset: 3n, requestedOffset: 3n, clamped: null },
    ]);
    // Past the log end (3) and before the log start (0): kept at the bound, and the plan says so.
    expect(await kit.admin.resetOffsets('admin-group', { shiftBy: 5 }, { dryRun: true })).toEqual([
      { topic, partition: 0, currentOffset: 1n, newOffset: 3n, requestedOffset: 6n, clamped: 'log-end' },
      { topic, partition: 1, currentOffset: 2n, newOffset: 3n, requestedOffset: 7n, clamped: 'log-end' },
    ]);
    expect(
      (await kit.admin.resetOffsets('admin-group', { shiftBy: -2 }, { dryRun: true })).map((line) => [
        line.newOffset,
        line.requestedOffset,
        line.clamped,
      ]),
    ).toEqual([
      [0n, -1n, 'log-start'],
      [0n, 0n, null],
    ]);
    expect((await kit.admin.fetchOffsets('admin-group')).map((entry) => entry.offset)).toEqual([1n, 2n]);
    await kit.admin.resetOffsets('admin-group', 'latest');
    expect((await kit.admin.fetchOffsets('admin-group')).map((entry) => entry.offset)).toEqual([3n, 3n]);
    await kit.admin.resetOffsets('admin-group', { offset: 0 }, { topics: [topic] });
    expect((await kit.admin.groupLag('admin-group')).map((entry) => entry.lag)).toEqual([3n, 3n]);

    await kit.admin.deleteGroups(['admin-group']);
    expect((await kit.admin.listGroups()).map((group) => group.groupId)).not.toContain('admin-group');
    const missing = await failure(kit.admin.deleteGroups(['admin-group']));
    expect(missing.code).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
  });
});
