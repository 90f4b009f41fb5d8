import { Admin, Client } from '@weir/protocol';
import { type RunningBroker, startBroker, temporaryDirectory } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadGroupId,
  offsetsTopicEnds,
  offsetsTopicRecords,
  replayedOffsetsRecords,
  rollOffsetsSegmentsEverySecond,
  waitForOffsetsCompacted,
  waitForOffsetsSegmentsClosed,
  writeOffsetCommits,
} from './offsets-commit-load';
import { capturedLogger } from './tls-fixtures';

/**
 * A broker's start after many offset commits costs what compaction left, not what was written
 * (issue #19: "a broker with 1,000,000 offset commits to 1,000 groups starts in the time of the
 * compacted size"; the time itself is bench/compaction/offsets-startup.ts). Here at small scale:
 * 20,000 commits by 100 groups to 3 partitions each, through the SDK; once the cleaner has
 * compacted `__consumer_offsets` to one record per group and partition, a restarted broker's group
 * coordinator replays exactly those records (its replay log lines count them) and every group
 * fetches the offsets it committed last.
 */

const TOPIC = 'orders';
const GROUPS = 100;
const COMMITS = 20_000;
const PARTITIONS_PER_GROUP = 3;
const OVERRIDES = { log: { cleaner: { backoffMs: 100 } }, groups: { offsetsTopicPartitions: 4 } } as const;

describe('a start after 20,000 offset commits to 100 groups, compacted', () => {
  let directory: { path: string; cleanup: () => Promise<void> } | undefined;
  let broker: RunningBroker | undefined;

  afterEach(async () => {
    await broker?.stop();
    await directory?.cleanup();
  });

  it('replays only the surviving records, and every group keeps its last commits', async () => {
    directory = await temporaryDirectory('weir-offsets-startup-');
    const writing = capturedLogger();
    broker = await startBroker(OVERRIDES, directory.path, { logger: writing.logger });
    const client = new Client({ bootstrapServers: [broker.bootstrap] });
    let expected: Map<string, Map<number, bigint>>;
    let survivors: number;
    try {
      const admin = new Admin(client);
      await admin.createTopics([{ name: TOPIC, partitions: PARTITIONS_PER_GROUP, replicationFactor: 1 }]);
      await rollOffsetsSegmentsEverySecond(admin);
      expected = await writeOffsetCommits(client, {
        topic: TOPIC,
        groups: GROUPS,
        commits: COMMITS,
        partitionsPerGroup: PARTITIONS_PER_GROUP,
        commitsPerRequest: 100,
      });
      const ends = await offsetsTopicEnds(admin);
      // Every commit is a record of its own: the written size is the commit count.
      expect([...ends.values()].reduce((sum, end) => sum + end, 0)).toBe(COMMITS);
      await waitForOffsetsSegmentsClosed(directory.path, ends);
      await waitForOffsetsCompacted(writing.lines, ends);
      survivors = await offsetsTopicRecords(broker.bootstrap);
      expect(survivors).toBe(GROUPS * PARTITIONS_PER_GROUP);
    } finally {
      await client.close();
    }
    await broker.stop();

    const restarting = capturedLogger();
    broker = await startBroker(OVERRIDES, directory.path, { logger: restarting.logger });
    expect(replayedOffsetsRecords(restarting.lines())).toEqual({
      partitions: OVERRIDES.groups.offsetsTopicPartitions,
      records: survivors,
    });
    const restarted = new Client({ bootstrapServers: [broker.bootstrap] });
    try {
      const admin = new Admin(restarted);
      const wrong: string[] = [];
      for (let group = 0; group < GROUPS; group++) {
        const groupId = loadGroupId(group);
        const committed = await admin.fetchOffsets(groupId);
        const got = committed
          .map(({ topic, partition, offset }) => `${topic}-${partition}@${offset}`)
          .join(' ');
        const want = [...expected.get(groupId)!]
          .sort(([left], [right]) => left - right)
          .map(([partition, offset]) => `${TOPIC}-${partition}@${offset}`)
          .join(' ');
        if (got !== want) wrong.push(`${groupId}: ${got} instead of ${want}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      await restarted.close();
    }
  }, 120_000);
});
