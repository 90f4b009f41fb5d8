import type { Admin, InternalAdminApi } from '@weir/protocol';
import type { TopicLogCleaner } from '../api/schemas/log-cleaner';

/**
 * The log cleaner's state of a topic's replicas: each broker cleans its own, so the routed admin
 * asks every broker holding one (cluster/routed-internal-admin.ts). Whether the topic compacts is
 * read from its cleanup.policy, so the page can tell "not compacted" from "not looked at yet".
 */
export async function describeTopicLogCleaner(
  admin: Pick<Admin, 'describeConfigs'>,
  internal: Pick<InternalAdminApi, 'describeLogCleaner'>,
  topic: string,
  now: () => number,
): Promise<TopicLogCleaner> {
  const [[configs], states] = await Promise.all([
    admin.describeConfigs([{ type: 'topic', name: topic, keys: ['cleanup.policy'] }]),
    internal.describeLogCleaner([topic]),
  ]);
  const policy = configs?.configs.find((entry) => entry.name === 'cleanup.policy')?.value ?? '';
  return {
    asOfMs: now(),
    topic,
    compacted: policy.split(',').includes('compact'),
    replicas: states.map((state) => ({
      partition: state.partition,
      brokerId: state.brokerId,
      leader: state.leader,
      dirtyRatio: state.dirtyRatio,
      minCleanableDirtyRatio: state.minCleanableDirtyRatio,
      cleanedUpToOffset: state.cleanedUpToOffset === null ? null : state.cleanedUpToOffset.toString(),
      lastCleanedAtMs: state.lastCleanedAtMs,
      lastOutcome: state.lastOutcome,
      lastError: state.lastError,
      lastCleanRemovedBytes:
        state.lastCleanRemovedBytes === null ? null : state.lastCleanRemovedBytes.toString(),
      removedBytesTotal: state.removedBytesTotal.toString(),
      nextCleanDue: state.nextCleanDue,
    })),
  };
}
