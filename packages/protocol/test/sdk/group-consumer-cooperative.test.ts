import { describe, expect, it, vi } from 'vitest';
import type { GroupConsumer } from '../../src/client/group/group-consumer';
import { cooperativeStickyAssignor } from '../../src/client/group/sticky-assignor';
import { countIdsWhileRunning, partitionsOf, until, useGroupTestKit } from './group-test-kit';

// Incremental cooperative rebalancing (KIP-429) with the cooperative-sticky assignor: members keep
// what they keep, revoke only what moves, and nothing is lost.

vi.setConfig({ testTimeout: 40_000 });

const kit = useGroupTestKit('cooperative-test', [cooperativeStickyAssignor]);
const member = kit.member;

describe('GroupConsumer with cooperative-sticky', () => {
  it('revokes only the partitions that move and keeps reading the rest from its position', async () => {
    const topic = 'cooperative-split';
    await kit.admin.createTopics([{ name: topic, partitions: 6 }]);
    await kit.produceIds(
      topic,
      Array.from({ length: 12 }, (_, id) => id),
      6,
    );
    const revoked: number[][] = [];
    const assigned: number[][] = [];
    const first = member('cooperative-split-group', {
      onRevoked: (partitions) => void revoked.push(partitions.map((entry) => entry.partition).sort()),
      onAssigned: (partitions) => void assigned.push(partitions.map((entry) => entry.partition).sort()),
    });
    first.subscribe([topic]);
    const readByFirst: number[] = [];
    await until(async () => {
      readByFirst.push(...(await first.poll({ maxWaitMs: 100 })).map((record) => Number(record.value)));
      return readByFirst.length >= 12;
    }, 'the first member to read all twelve');
    expect(assigned).toEqual([[0, 1, 2, 3, 4, 5]]);

    // Nothing was committed. An eager member would start its kept partitions over from the log
    // start after the rebalance; a cooperative one goes on from its positions.
    const second = member('cooperative-split-group');
    second.subscribe([topic]);
    await until(
      () =>
        first.state === 'running' &&
        second.state === 'running' &&
        first.generationId === second.generationId &&
        partitionsOf(first).length === 3 &&
        partitionsOf(second).length === 3,
      'the partitions to be shared three and three',
    );
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toHaveLength(3);
    expect(assigned).toHaveLength(1);
    expect([...partitionsOf(first), ...revoked[0]!].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(partitionsOf(second)).toEqual(revoked[0]);

    const again = await first.poll({ maxWaitMs: 300 });
    expect(again).toEqual([]);
  });

  it('loses no message across repeated cooperative rebalances with manual commits', async () => {
    const topic = 'cooperative-no-loss';
    const total = 600;
    await kit.admin.createTopics([{ name: topic, partitions: 6 }]);
    const seen = new Map<number, number>();
    let stop = false;
    const run = (consumer: GroupConsumer): Promise<void> =>
      countIdsWhileRunning(consumer, topic, seen, () => stop);
    const first = member('cooperative-no-loss-group');
    const loops = [run(first)];
    let nextId = 0;
    for (let round = 0; round < 4; round++) {
      await kit.producer.send({
        topic,
        messages: Array.from({ length: total / 4 }, () => {
          const id = nextId++;
          return { value: String(id), partition: id % 6 };
        }),
      });
      const extra = member('cooperative-no-loss-group');
      loops.push(run(extra));
      await until(
        () => extra.state === 'running' && extra.assignment().length > 0,
        'the newcomer got partitions',
      );
      await extra.close();
    }
    await until(() => seen.size === total, `all ${total} ids (have ${seen.size})`, 30_000);
    stop = true;
    await Promise.all(loops);
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, id) => id));
    await first.close();
    const committed = await kit.admin.fetchOffsets('cooperative-no-loss-group');
    expect(committed.reduce((sum, entry) => sum + entry.offset, 0n)).toBe(BigInt(total));
  });
});
