import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';
import { partitionsOf, until, useGroupTestKit } from './group-test-kit';

// Static membership (KIP-345): a member with a group.instance.id comes back without a rebalance.

vi.setConfig({ testTimeout: 40_000 });

const kit = useGroupTestKit('static-test');
const member = kit.member;

describe('GroupConsumer with a groupInstanceId', () => {
  it('gets its partitions back after a restart within the session timeout, and nobody rebalances', async () => {
    const topic = 'static-split';
    await kit.admin.createTopics([{ name: topic, partitions: 4 }]);
    // The dynamic member joins first and leads: a restarted static leader would rebalance (as in
    // Kafka before JoinGroup v9), a restarted static follower does not.
    const dynamic = member('static-group');
    dynamic.subscribe([topic]);
    await until(() => dynamic.state === 'running', 'the first member to run');
    const first = member('static-group', { groupInstanceId: 'worker-1' });
    first.subscribe([topic]);
    await until(
      () =>
        dynamic.state === 'running' &&
        first.state === 'running' &&
        dynamic.generationId === first.generationId &&
        partitionsOf(dynamic).length === 2 &&
        partitionsOf(first).length === 2,
      'both members to share the partitions',
    );
    const generation = dynamic.generationId;
    const held = partitionsOf(first);

    // Closing a static member does not leave the group…
    await first.close();
    const group = (await kit.admin.describeGroups(['static-group']))[0]!;
    expect(group.members.map((entry) => entry.groupInstanceId).sort()).toEqual([null, 'worker-1']);

    // …so its successor with the same instance id resumes its partitions in the same generation.
    const second = member('static-group', { groupInstanceId: 'worker-1' });
    second.subscribe([topic]);
    await until(() => second.state === 'running', 'the restarted member to run');
    expect(partitionsOf(second)).toEqual(held);
    expect(dynamic.generationId).toBe(generation);
    expect(dynamic.state).toBe('running');
  });

  it('fences the older of two live members with one instance id', async () => {
    const topic = 'static-fence';
    await kit.admin.createTopics([{ name: topic, partitions: 2 }]);
    const older = member('static-fence-group', { groupInstanceId: 'twin' });
    older.subscribe([topic]);
    await until(() => older.state === 'running', 'the first twin to run');
    const newer = member('static-fence-group', { groupInstanceId: 'twin' });
    newer.subscribe([topic]);
    await until(() => newer.state === 'running', 'the second twin to run');
    const failure = await (async () => {
      for (;;) {
        try {
          await older.poll({ maxWaitMs: 100 });
        } catch (error) {
          return error;
        }
      }
    })();
    expect(failure).toBeInstanceOf(WeirError);
    expect((failure as WeirError).code).toBe(ErrorCode.FENCED_INSTANCE_ID);
  });
});
