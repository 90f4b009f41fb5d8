import { describe, expect, it } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { kcatProduce, kcatReadAll, storedAssignment } from './cluster-clients';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';

/**
 * A follower copying a compacted leader (issue #19 item 6): it was down while the leader's cleaner
 * removed older values, so it catches up across the holes, and once it leads alone it serves the
 * leader's records at the leader's offsets (its own cleaner may remove more, never anything else).
 */

const TOPIC = 'replicated-table';
const KEYS = 5;
const ROUNDS = 40;

interface Stored {
  offset: number;
  key: string;
  value: string;
}

function parse(lines: readonly string[]): Stored[] {
  return lines.map((line) => {
    const [, offset, key, value] = line.split(' ');
    return { offset: Number(offset), key: key!, value: value! };
  });
}

describe('a compacted topic on replicas', { timeout: 240_000 }, () => {
  it("a follower catching up across the leader's cleaned range ends with its records at its offsets", async () => {
    const cluster = await startReplicatedCluster({ config: { log: { cleaner: { backoffMs: 100 } } } });
    await createReplicatedTopics(cluster, [TOPIC], 1, {
      configEntries: [
        { name: 'cleanup.policy', value: 'compact' },
        { name: 'segment.bytes', value: '1024' },
        { name: 'min.cleanable.dirty.ratio', value: '0.01' },
        { name: 'min.insync.replicas', value: '2' },
      ],
    });
    const bootstrap = cluster.bootstrapServers.join(',');
    const assignment = await storedAssignment(cluster, TOPIC, 0);
    const follower = cluster.broker(assignment.replicas.find((id) => id !== assignment.leader)!);
    await follower.kill9();
    // Small produce calls make small batches, so segments roll and older values can go.
    for (let round = 0; round < ROUNDS; round++) {
      const lines = Array.from({ length: KEYS }, (_, key) => `key-${key}:round-${round}`);
      await kcatProduce(bootstrap, TOPIC, lines, 0);
    }
    const leaderView = parse(
      await pollUntil(async () => {
        const lines = await kcatReadAll(bootstrap, TOPIC);
        return lines.length < (ROUNDS * KEYS) / 2 ? lines : undefined;
      }, "the leader's cleaner to remove older values"),
    );

    follower.spawn();
    await follower.waitReady();
    await pollUntil(
      async () => (await storedAssignment(cluster, TOPIC, 0)).isr.length === 3,
      'the follower back in the ISR',
    );
    // Only the follower is left, so it leads, and what it serves is its own log.
    for (const broker of cluster.brokers) if (broker !== follower) await broker.kill9();
    await pollUntil(
      async () => (await storedAssignment(cluster, TOPIC, 0)).leader === follower.nodeId,
      'the follower to lead',
    );
    const followerView = parse(await kcatReadAll(follower.bootstrap, TOPIC));
    const leaderByOffset = new Map(leaderView.map((record) => [record.offset, record]));
    for (const record of followerView) expect(leaderByOffset.get(record.offset)).toEqual(record);
    const latest = (records: readonly Stored[]) => new Map(records.map((record) => [record.key, record]));
    expect(latest(followerView)).toEqual(latest(leaderView));
    // The holes came over: the follower holds no older value the leader had removed.
    expect(followerView.length).toBeLessThanOrEqual(leaderView.length);
  });
});
