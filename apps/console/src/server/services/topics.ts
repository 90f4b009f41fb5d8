import type { Admin, InternalAdminApi, TopicSummary as SdkTopicSummary } from '@weir/protocol';
import { ErrorCode, WeirError } from '@weir/protocol';
import type {
  CreateTopicInput,
  DeleteRecordsInput,
  TopicDetail,
  TopicList,
  TopicListInput,
  TopicPreset,
  TopicPresetId,
  TopicSummary,
} from '../api/schemas/topics';
import type { AclPolicyView } from './permissions/acl-policy';
import { requireTopicAction, topicAllowedActions } from './permissions/topic-permissions';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Creation presets: retention by time (delete), forever, or the latest value per key (compact, a
 * table); custom configs go on top of any of them.
 */
export const TOPIC_PRESETS: readonly TopicPreset[] = [
  { id: 'default', label: 'Broker defaults', description: "The broker's default settings.", configs: {} },
  {
    id: 'retention-1d',
    label: 'Keep 1 day',
    description: 'Records are deleted one day after they were written.',
    configs: { 'cleanup.policy': 'delete', 'retention.ms': String(DAY_MS) },
  },
  {
    id: 'retention-7d',
    label: 'Keep 7 days',
    description: 'Records are deleted seven days after they were written.',
    configs: { 'cleanup.policy': 'delete', 'retention.ms': String(7 * DAY_MS) },
  },
  {
    id: 'retention-forever',
    label: 'Keep forever',
    description: 'Records are kept until deleted explicitly (no time or size limit).',
    configs: { 'cleanup.policy': 'delete', 'retention.ms': '-1', 'retention.bytes': '-1' },
  },
  {
    id: 'compacted',
    label: 'Latest value per key',
    description:
      'A table: the log cleaner keeps the newest record of every key and removes older ones; records need a key.',
    configs: { 'cleanup.policy': 'compact' },
  },
];

function presetConfigs(id: TopicPresetId): Readonly<Record<string, string>> {
  return TOPIC_PRESETS.find((preset) => preset.id === id)?.configs ?? {};
}

export function toTopicSummary(topic: SdkTopicSummary, acl?: AclPolicyView | null): TopicSummary {
  return {
    name: topic.name,
    internal: topic.internal,
    partitionCount: topic.partitionCount,
    replicationFactor: topic.replicationFactor,
    sizeBytes: topic.sizeBytes.toString(),
    messageCount: topic.messageCount.toString(),
    groups: topic.groups.map((group) => ({ groupId: group.groupId, lag: group.lag.toString() })),
    allowedActions: topicAllowedActions(topic, acl),
  };
}

export async function listTopics(
  internal: Pick<InternalAdminApi, 'listTopicSummaries'>,
  input: TopicListInput,
  now: () => number,
  acl?: AclPolicyView | null,
): Promise<TopicList> {
  const page = await internal.listTopicSummaries({
    ...(input.search === undefined ? {} : { search: input.search }),
    includeInternal: input.includeInternal ?? false,
    sortBy: input.sortBy,
    descending: input.descending ?? false,
    offset: input.offset,
    limit: input.limit,
  });
  return {
    asOfMs: now(),
    totalCount: page.totalCount,
    topics: page.topics.map((topic) => toTopicSummary(topic, acl)),
  };
}

/** A topic's summary row and its partitions as the broker holds them. */
export async function describeTopic(
  internal: Pick<InternalAdminApi, 'listTopicSummaries' | 'describePartitions'>,
  topic: string,
  now: () => number,
  acl?: AclPolicyView | null,
): Promise<TopicDetail> {
  const [partitions, page] = await Promise.all([
    internal.describePartitions(topic),
    internal.listTopicSummaries({ search: topic, includeInternal: true, limit: 1000 }),
  ]);
  const summary = page.topics.find((candidate) => candidate.name === topic);
  if (summary === undefined) {
    throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `Topic "${topic}".` });
  }
  return {
    asOfMs: now(),
    ...toTopicSummary(summary, acl),
    partitions: partitions.map((partition) => {
      // The routed admin (cluster/routed-internal-admin.ts) gives -1 offsets for a partition
      // whose leader could not be asked.
      const offline = partition.highWatermark < 0n;
      const offset = (value: bigint) => (offline ? null : value.toString());
      return {
        partition: partition.partition,
        leaderId: partition.leaderId,
        replicas: [...partition.replicas],
        isr: [...partition.isr],
        underReplicated: partition.isr.length < partition.replicas.length,
        offline,
        logStartOffset: offset(partition.logStartOffset),
        logEndOffset: offset(partition.logEndOffset),
        highWatermark: offset(partition.highWatermark),
        lastStableOffset: offset(partition.lastStableOffset),
        stableGap: offset(
          partition.highWatermark > partition.lastStableOffset
            ? partition.highWatermark - partition.lastStableOffset
            : 0n,
        ),
        sizeBytes: partition.sizeBytes.toString(),
        segmentCount: partition.segments.length,
        producerCount: partition.producerCount,
      };
    }),
  };
}

export async function createTopic(
  admin: Pick<Admin, 'createTopics'>,
  input: CreateTopicInput,
): Promise<{ name: string; partitions: number; configs: Record<string, string> }> {
  const configs = { ...presetConfigs(input.preset), ...(input.configs ?? {}) };
  await admin.createTopics(
    [
      {
        name: input.name,
        partitions: input.partitions,
        ...(input.replicationFactor === undefined ? {} : { replicationFactor: input.replicationFactor }),
        configs,
      },
    ],
    { validateOnly: input.validateOnly },
  );
  return { name: input.name, partitions: input.partitions, configs };
}

export async function addPartitions(
  admin: Pick<Admin, 'describeTopics' | 'createPartitions'>,
  input: { topic: string; count: number; validateOnly: boolean },
): Promise<{ previousCount: number }> {
  await requireTopicAction(admin, input.topic, 'addPartitions');
  const [description] = await admin.describeTopics([input.topic]);
  const previousCount = description!.partitions.length;
  await admin.createPartitions([{ topic: input.topic, count: input.count }], {
    validateOnly: input.validateOnly,
  });
  return { previousCount };
}

export async function deleteRecords(
  admin: Pick<Admin, 'describeTopics' | 'deleteRecords'>,
  input: DeleteRecordsInput,
): Promise<{ partition: number; logStartOffset: string }[]> {
  await requireTopicAction(admin, input.topic, 'deleteRecords');
  const results = await admin.deleteRecords(
    input.partitions.map((partition) => ({
      topic: input.topic,
      partition: partition.partition,
      beforeOffset: BigInt(partition.beforeOffset),
    })),
  );
  return results.map((result) => ({
    partition: result.partition,
    logStartOffset: result.lowWatermark.toString(),
  }));
}

/** Deletes a topic the policy lets go (never an internal one). */
export async function deleteTopic(
  admin: Pick<Admin, 'describeTopics' | 'deleteTopics'>,
  topic: string,
): Promise<void> {
  await requireTopicAction(admin, topic, 'delete');
  await admin.deleteTopics([topic]);
}
