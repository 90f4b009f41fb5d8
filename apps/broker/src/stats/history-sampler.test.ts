import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import type { GroupSnapshot } from '../group/group-views';
import { createStorageIo } from '../log/storage';
import type { PartitionOffsets } from '../replica/partition-types';
import { HISTORY_FILE, HistorySampler } from './history-sampler';
import type { HistoryTier } from './history-tiers';
import { HistoryView } from './history-view';
import { TopicTraffic } from './topic-traffic';

const TIERS: HistoryTier[] = [
  { resolutionMs: 1000, slots: 60 },
  { resolutionMs: 60_000, slots: 1440 },
];

/** A group as the coordinator describes it: committed offsets, no members (Empty). */
function committedGroup(groupId: string, offsets: Record<number, number>): GroupSnapshot {
  return {
    groupId,
    state: 'Empty',
    protocolType: 'consumer',
    protocolName: null,
    generationId: 0,
    leaderId: null,
    stateTimestampMs: 0,
    members: [],
    offsets: Object.entries(offsets).map(([partition, offset]) => ({
      topic: 'orders',
      partition: Number(partition),
      offset,
      leaderEpoch: -1,
      metadata: '',
    })),
  };
}

describe('HistorySampler', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  const warnings: string[] = [];
  let nowMs = 1_800_000_000_000;
  let groups: GroupSnapshot[] = [];
  const ends = new Map<number, number>();
  const traffic = new TopicTraffic();

  const sampler = () =>
    new HistorySampler({
      io: createStorageIo(),
      dataDirectory: directory.path,
      tiers: TIERS,
      maxSeries: 100,
      sampleIntervalMs: 1000,
      persistIntervalMs: 60_000,
      groups: () => groups,
      offsetsOf: (_topic, partition): PartitionOffsets => {
        const end = ends.get(partition) ?? 0;
        return { logStartOffset: 0, logEndOffset: end, highWatermark: end, lastStableOffset: end };
      },
      ledTopics: () => ['orders'],
      traffic,
      clock: { nowMs: () => nowMs },
      logger: { info: () => {}, warn: (_fields, message) => warnings.push(message) },
    });

  beforeEach(async () => {
    directory = await temporaryDirectory('weir-history-');
    warnings.length = 0;
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  /** Ten samplings a second apart: 100 records produced a second, the group consuming 60 of them. */
  function produceAndConsume(running: HistorySampler): void {
    for (let second = 1; second <= 10; second++) {
      nowMs += 1000;
      ends.set(0, second * 100);
      ends.set(1, second * 10);
      traffic.produced('orders', second * 1000, 110);
      traffic.fetched('orders', 600, 60);
      groups = [committedGroup('billing', { 0: second * 60, 1: second * 10 })];
      running.sample();
    }
  }

  it('samples lag per partition and per group, and rates, and reads them back after a restart from its file', async () => {
    const first = sampler();
    await first.start();
    produceAndConsume(first);
    await first.stop();
    const view = (running: HistorySampler) =>
      new HistoryView(() => running.store, { nowMs: () => nowMs }, 1000);
    const before = view(first).groupLagHistory(['billing'], nowMs - 9_000, true)[0]!;
    // Partition 0 falls behind by 40 a second; partition 1 keeps up.
    expect(before.totalLag).toEqual([40, 80, 120, 160, 200, 240, 280, 320, 360, 400]);
    expect(before.partitions.map(({ partition, lag }) => [partition, lag.at(-1)])).toEqual([
      [0, 400],
      [1, 0],
    ]);
    // Rates start with the second sampling: 60 + 10 consumed, 100 + 10 produced a second.
    expect(before.consumedPerSecond).toEqual([Number.NaN, 70, 70, 70, 70, 70, 70, 70, 70, 70]);
    expect(before.producedPerSecond.slice(1)).toEqual(Array(9).fill(110));
    const throughput = view(first).topicThroughputHistory(['orders'], nowMs - 9_000)[0]!;
    expect(throughput.recordsIn).toEqual(Array(10).fill(110));
    expect(throughput.recordsOut).toEqual(Array(10).fill(60));
    expect((await stat(join(directory.path, HISTORY_FILE))).size).toBeGreaterThan(0);

    const second = sampler();
    await second.start();
    expect(view(second).groupLagHistory(['billing'], nowMs - 9_000, true)).toEqual([before]);
    // It goes on where the first one stopped: the coarse bucket of this minute grows.
    nowMs += 1000;
    second.sample();
    expect(
      view(second)
        .groupLagHistory(['billing'], nowMs - 10_000, false)[0]!
        .totalLag.at(-1),
    ).toBe(400);
    await second.stop();
    expect(warnings).toEqual([]);
  });

  it('starts an empty history from a damaged file and says so', async () => {
    const first = sampler();
    await first.start();
    produceAndConsume(first);
    await first.stop();
    const path = join(directory.path, HISTORY_FILE);
    const bytes = await readFile(path);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0x55;
    await writeFile(path, bytes);
    const second = sampler();
    await second.start();
    expect(second.store.seriesCount).toBe(0);
    expect(warnings).toEqual(['lag and throughput history unreadable; starting an empty one']);
    await second.stop();
  });

  it('leaves the file alone when it is stopped without having started', async () => {
    const first = sampler();
    await first.start();
    produceAndConsume(first);
    await first.stop();
    const written = await readFile(join(directory.path, HISTORY_FILE));
    await sampler().stop();
    expect((await readFile(join(directory.path, HISTORY_FILE))).equals(written)).toBe(true);
  });
});
