import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Admin, type Client, ErrorCode, errorForCode, OffsetCommit } from '@weir/protocol';
import { OFFSETS_TOPIC } from '../src/group/offsets-topic';
import { LOG_SUFFIX, offsetFileName, partitionDirectoryName } from '../src/log/log-files';
import { pollUntil } from './group-fixtures';
import { kcat } from './kcat-clients';

/**
 * Offset commits by the thousand for the tests and the benchmark of a compacted
 * `__consumer_offsets` (issue #19): writing them fast through the SDK, closing the segments they
 * were written to so the cleaner can reach them all, waiting for the cleaner, and reading what the
 * broker says it replayed at its next start.
 */

/** One broker log line (pino JSON), as a captured logger or a child broker's log gives it. */
export type LogLine = Record<string, unknown>;

export interface CommitLoad {
  /** The topic the groups commit positions of; it must have `partitionsPerGroup` partitions. */
  readonly topic: string;
  readonly groups: number;
  /** Commits in all, spread evenly over the groups (a multiple of `groups`). */
  readonly commits: number;
  /** Each group commits to partitions 0 … partitionsPerGroup-1 of the topic in turn. */
  readonly partitionsPerGroup: number;
  /** Commits one OffsetCommit request carries (default 1000): each is a record of its own. */
  readonly commitsPerRequest?: number;
  /** Requests in flight at once, each for another group (default 8). */
  readonly concurrency?: number;
}

/** Group `index`'s id. */
export function loadGroupId(index: number): string {
  return `load-group-${index}`;
}

/**
 * Writes the load's commits as a simple (generation -1) committer, many to a request: the broker
 * writes one record per entry whose offset changed, so a request of 1000 entries for one
 * partition with rising offsets is 1000 records. Commit `c` of a group goes to partition
 * `c % partitionsPerGroup` with offset `c + 1`. Sent to any broker, so the client must know only
 * the one (standalone) broker, which coordinates every group. Resolves with each group's last
 * committed offset per partition.
 */
export async function writeOffsetCommits(
  client: Client,
  load: CommitLoad,
): Promise<Map<string, Map<number, bigint>>> {
  if (load.commits % load.groups !== 0) throw new Error('commits must be a multiple of groups');
  const perGroup = load.commits / load.groups;
  const perRequest = load.commitsPerRequest ?? 1000;
  const expected = new Map<string, Map<number, bigint>>();
  const requests: { groupId: string; first: number; count: number }[] = [];
  for (let group = 0; group < load.groups; group++) {
    const groupId = loadGroupId(group);
    const last = new Map<number, bigint>();
    for (let commit = Math.max(0, perGroup - load.partitionsPerGroup); commit < perGroup; commit++) {
      last.set(commit % load.partitionsPerGroup, BigInt(commit + 1));
    }
    expected.set(groupId, last);
    for (let first = 0; first < perGroup; first += perRequest) {
      requests.push({ groupId, first, count: Math.min(perRequest, perGroup - first) });
    }
  }
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < requests.length; index = next++) {
      const { groupId, first, count } = requests[index]!;
      const response = await client.send('any', OffsetCommit, {
        groupId,
        generationIdOrMemberEpoch: -1,
        memberId: '',
        groupInstanceId: null,
        retentionTimeMs: -1n,
        topics: [
          {
            name: load.topic,
            partitions: Array.from({ length: count }, (_, offset) => ({
              partitionIndex: (first + offset) % load.partitionsPerGroup,
              committedOffset: BigInt(first + offset + 1),
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: '',
            })),
          },
        ],
      });
      for (const partition of response.topics.flatMap((topic) => topic.partitions)) {
        if (partition.errorCode !== ErrorCode.NONE) {
          throw errorForCode(partition.errorCode, `Committing for ${groupId}.`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: load.concurrency ?? 8 }, worker));
  return expected;
}

/**
 * Makes every `__consumer_offsets` segment roll a second after its first write, so once the
 * commits stop all they wrote is in closed segments, which the cleaner can reach (it never cleans
 * the active one). The log manager rolls a segment past segment.ms without waiting for an append.
 */
export async function rollOffsetsSegmentsEverySecond(admin: Admin): Promise<void> {
  await admin.incrementalAlterConfigs([
    {
      type: 'topic',
      name: OFFSETS_TOPIC,
      changes: [{ name: 'segment.ms', operation: 'set', value: '1000' }],
    },
  ]);
}

/** The end offset of every `__consumer_offsets` partition that holds records. */
export async function offsetsTopicEnds(admin: Admin): Promise<Map<number, number>> {
  const ends = new Map<number, number>();
  for (const { partition, latest } of await admin.topicOffsets(OFFSETS_TOPIC)) {
    if (latest > 0n) ends.set(partition, Number(latest));
  }
  return ends;
}

/**
 * Resolves once every `__consumer_offsets` partition with records has rolled to an empty segment
 * at its log end, i.e. all its records are in closed segments. Segments are named by their base
 * offset, so the file tells. Only while the broker that wrote them still runs: a segment reloaded
 * at start rolls by time only after its next append.
 */
export async function waitForOffsetsSegmentsClosed(
  dataDir: string,
  ends: ReadonlyMap<number, number>,
  timeoutMs = 30_000,
): Promise<void> {
  await pollUntil(
    () =>
      [...ends].every(([partition, end]) =>
        existsSync(
          join(
            dataDir,
            'logs',
            partitionDirectoryName(OFFSETS_TOPIC, partition),
            offsetFileName(end, LOG_SUFFIX),
          ),
        ),
      ),
    'every __consumer_offsets partition to roll its last segment',
    { timeoutMs, intervalMs: 100 },
  );
}

/**
 * Resolves once the cleaner has logged a clean of every partition in `ends` up to its end offset:
 * everything in them is compacted.
 */
export async function waitForOffsetsCompacted(
  lines: () => readonly LogLine[],
  ends: ReadonlyMap<number, number>,
  timeoutMs = 60_000,
): Promise<void> {
  await pollUntil(
    () => {
      const cleaned = new Set<number>();
      for (const line of lines()) {
        if (line.msg !== 'cleaned a compacted partition' || line.topic !== OFFSETS_TOPIC) continue;
        if (line.cleanedUpToOffset === ends.get(line.partition as number))
          cleaned.add(line.partition as number);
      }
      return cleaned.size === ends.size;
    },
    'the cleaner to compact every __consumer_offsets partition to its end',
    { timeoutMs, intervalMs: 100 },
  );
}

/** What the group coordinator read at a start: the records its replays of `__consumer_offsets` handed it. */
export function replayedOffsetsRecords(lines: readonly LogLine[]): { partitions: number; records: number } {
  const replays = lines.filter((line) => line.msg === '__consumer_offsets partition replayed');
  return {
    partitions: replays.length,
    records: replays.reduce((sum, line) => sum + (line.records as number) + (line.skipped as number), 0),
  };
}

/** How many records kcat reads from `__consumer_offsets`, every partition from its start. */
export async function offsetsTopicRecords(bootstrap: string): Promise<number> {
  const stdout = await kcat({ bootstrap }, [
    '-C',
    '-t',
    OFFSETS_TOPIC,
    '-o',
    'beginning',
    '-e',
    '-q',
    '-f',
    '%o\\n',
  ]);
  return stdout.split('\n').filter((line) => line.length > 0).length;
}
