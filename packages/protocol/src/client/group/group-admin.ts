import { ErrorCode } from '../../errors/error-codes';
import { errorForCode, WeirError } from '../../errors/weir-error';
import { DeleteGroups } from '../../messages/apis/delete-groups';
import { DescribeGroups } from '../../messages/apis/describe-groups';
import { ListGroups } from '../../messages/apis/list-groups';
import {
  decodeConsumerAssignment,
  decodeConsumerSubscription,
  type TopicPartitions,
} from '../../records/consumer-protocol';
import { type AdminItemFailure, AdminItemsError } from '../admin-error';
import type { Client } from '../client';
import { partitionKey } from '../leader-requests';
import { listOffsets, type OffsetSpec } from '../list-offsets';
import { findGroupCoordinator } from './coordinator';
import {
  type CommittedOffset,
  type CoordinatorSend,
  commitOffsets,
  fetchCommittedOffsets,
} from './group-offsets';

/** A group as ListGroups reports it. */
export interface GroupListing {
  readonly groupId: string;
  /** "consumer" for consumer groups; other protocol types (Connect, …) exist. */
  readonly protocolType: string;
}

/** One member of a described group. */
export interface GroupMemberDescription {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  /** Subscribed topics, when the metadata is the standard consumer protocol's. */
  readonly topics: readonly string[] | null;
  /** Assigned partitions, when the assignment is the standard consumer protocol's. */
  readonly assignment: readonly TopicPartitions[] | null;
}

export interface GroupDescription {
  readonly groupId: string;
  /** Empty, PreparingRebalance, CompletingRebalance, Stable or Dead. */
  readonly state: string;
  readonly protocolType: string;
  /** The agreed assignor, such as "range". */
  readonly protocol: string;
  readonly members: readonly GroupMemberDescription[];
}

/** One partition's lag: log end minus committed (committed -1n counts from the log start). */
export interface GroupPartitionLag {
  readonly topic: string;
  readonly partition: number;
  readonly committedOffset: bigint;
  readonly logEndOffset: bigint;
  readonly lag: bigint;
}

/** Where {@link resetGroupOffsets} moves a group's positions. */
export type OffsetResetTarget =
  | 'earliest'
  | 'latest'
  | { readonly timestampMs: number }
  | { readonly offset: bigint | number }
  | { readonly shiftBy: bigint | number };

export interface OffsetResetOptions {
  /** Only compute the plan. Default false. */
  readonly dryRun?: boolean;
  /** Reset every partition of these topics; default: the topics the group has committed offsets for. */
  readonly topics?: readonly string[];
}

/** One line of a reset plan. */
export interface PlannedOffset {
  readonly topic: string;
  readonly partition: number;
  /** null when the group has committed nothing for the partition. */
  readonly currentOffset: bigint | null;
  readonly newOffset: bigint;
  /** Where the target pointed, before it was kept within the log: differs from newOffset when clamped. */
  readonly requestedOffset: bigint;
  /**
   * Set when the target pointed outside the partition's [log start, log end] and newOffset is that
   * bound instead (an offset or a shift past the end, or before the start): the caller must say so,
   * as Kafka's consumer-groups tool warns for the same clamp.
   */
  readonly clamped: 'log-start' | 'log-end' | null;
}

/** Sends to the group's coordinator through the client, finding it again after NOT_COORDINATOR. */
async function onCoordinator<T>(
  client: Client,
  groupId: string,
  work: (send: CoordinatorSend) => Promise<T>,
): Promise<T> {
  return client.retry(async () => {
    const { nodeId } = await findGroupCoordinator(client, groupId);
    return work((api, body) => client.send(nodeId, api, body));
  });
}

/** Every group of every broker, sorted by id. */
export async function listGroups(client: Client): Promise<GroupListing[]> {
  const { cluster } = await client.refreshMetadata([]);
  const answers = await Promise.all(
    cluster.brokers.map((broker) =>
      client.retry(async () => {
        const response = await client.send(broker.nodeId, ListGroups, {});
        if (response.errorCode !== ErrorCode.NONE)
          throw errorForCode(response.errorCode, `Node ${broker.nodeId}.`);
        return response.groups;
      }),
    ),
  );
  return answers
    .flat()
    .map((group) => ({ groupId: group.groupId, protocolType: group.protocolType }))
    .sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
}

/** Groups in the order asked; an {@link AdminItemsError} names those that failed. */
export async function describeGroups(
  client: Client,
  groupIds: readonly string[],
): Promise<GroupDescription[]> {
  const failures: AdminItemFailure[] = [];
  const results = await Promise.all(
    groupIds.map(async (groupId): Promise<GroupDescription | undefined> => {
      try {
        // The check is inside the retried work: a coordinator still loading answers retriably.
        const group = await onCoordinator(client, groupId, async (send) => {
          const response = await send(DescribeGroups, {
            groups: [groupId],
            includeAuthorizedOperations: false,
          });
          const found = response.groups.find((candidate) => candidate.groupId === groupId);
          if (found === undefined || found.errorCode !== ErrorCode.NONE) {
            throw errorForCode(found?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR, `Group "${groupId}".`);
          }
          return found;
        });
        const consumer = group.protocolType === 'consumer';
        return {
          groupId,
          state: group.groupState,
          protocolType: group.protocolType,
          protocol: group.protocolData,
          members: group.members.map((member) => ({
            memberId: member.memberId,
            groupInstanceId: member.groupInstanceId,
            clientId: member.clientId,
            clientHost: member.clientHost,
            topics: consumer ? (decodeConsumerSubscription(member.memberMetadata)?.topics ?? null) : null,
            assignment: consumer
              ? (decodeConsumerAssignment(member.memberAssignment)?.partitions ?? null)
              : null,
          })),
        };
      } catch (error) {
        if (!(error instanceof WeirError)) throw error;
        failures.push({ item: groupId, error });
        return undefined;
      }
    }),
  );
  if (failures.length > 0) throw new AdminItemsError('describeGroups', failures, groupIds.length);
  return results.filter((result): result is GroupDescription => result !== undefined);
}

/** Every committed offset of a group, sorted by topic and partition. */
export async function fetchGroupOffsets(client: Client, groupId: string): Promise<CommittedOffset[]> {
  const offsets = await onCoordinator(client, groupId, (send) => fetchCommittedOffsets(send, groupId, null));
  return offsets.filter((entry) => entry.offset >= 0n).sort(byPartition);
}

/** Committed offset, log end and lag of each partition the group has committed. */
export async function groupLag(client: Client, groupId: string): Promise<GroupPartitionLag[]> {
  const committed = await fetchGroupOffsets(client, groupId);
  const ends = await offsetsOf(client, committed, 'latest');
  return committed.map((entry) => {
    const logEndOffset = ends.get(partitionKey(entry.topic, entry.partition))!;
    const lag = logEndOffset - entry.offset;
    return {
      topic: entry.topic,
      partition: entry.partition,
      committedOffset: entry.offset,
      logEndOffset,
      lag: lag < 0n ? 0n : lag,
    };
  });
}

/**
 * Plans (and unless `dryRun`, commits) new positions for a group. Committing goes through
 * OffsetCommit with generation -1 and an empty member id, which the coordinator accepts only while
 * the group has no members: a live group is refused with NON_EMPTY_GROUP before anything is sent.
 * Offsets are kept within each partition's [log start, log end], as Kafka's tool keeps them; a
 * line that had to be moved there says so in `clamped`.
 */
export async function resetGroupOffsets(
  client: Client,
  groupId: string,
  target: OffsetResetTarget,
  options: OffsetResetOptions = {},
): Promise<PlannedOffset[]> {
  const committed = await fetchGroupOffsets(client, groupId);
  const topics = options.topics ?? [...new Set(committed.map((entry) => entry.topic))];
  const partitions: { topic: string; partition: number }[] = [];
  for (const topic of [...topics].sort()) {
    const metadata = await client.topic(topic);
    for (const partition of metadata.partitions) partitions.push({ topic, partition: partition.partition });
  }
  const [starts, ends] = await Promise.all([
    offsetsOf(client, partitions, 'earliest'),
    offsetsOf(client, partitions, 'latest'),
  ]);
  const byTime =
    typeof target === 'object' && 'timestampMs' in target
      ? await offsetsOf(client, partitions, target)
      : undefined;
  const plan = partitions.map(({ topic, partition }): PlannedOffset => {
    const key = partitionKey(topic, partition);
    const start = starts.get(key)!;
    const end = ends.get(key)!;
    const current =
      committed.find((entry) => entry.topic === topic && entry.partition === partition)?.offset ?? null;
    let wanted: bigint;
    if (target === 'earliest') wanted = start;
    else if (target === 'latest') wanted = end;
    else if ('timestampMs' in target) {
      const found = byTime!.get(key)!;
      wanted = found < 0n ? end : found;
    } else if ('offset' in target) wanted = BigInt(target.offset);
    else wanted = (current ?? start) + BigInt(target.shiftBy);
    const clamped = wanted < start ? 'log-start' : wanted > end ? 'log-end' : null;
    return {
      topic,
      partition,
      currentOffset: current,
      newOffset: clamped === 'log-start' ? start : clamped === 'log-end' ? end : wanted,
      requestedOffset: wanted,
      clamped,
    };
  });
  if (options.dryRun) return plan;
  const [group] = await describeGroups(client, [groupId]);
  if (group !== undefined && group.members.length > 0) {
    throw new WeirError(ErrorCode.NON_EMPTY_GROUP, {
      detail: `Group "${groupId}" has ${group.members.length} member(s); stop them before resetting offsets.`,
    });
  }
  await onCoordinator(client, groupId, (send) =>
    commitOffsets(send, {
      groupId,
      generationId: -1,
      memberId: '',
      offsets: plan.map(({ topic, partition, newOffset }) => ({ topic, partition, offset: newOffset })),
    }),
  );
  return plan;
}

/** Deletes empty groups and their offsets; an {@link AdminItemsError} names those that failed. */
export async function deleteGroups(client: Client, groupIds: readonly string[]): Promise<void> {
  const failures: AdminItemFailure[] = [];
  await Promise.all(
    groupIds.map(async (groupId) => {
      try {
        await onCoordinator(client, groupId, async (send) => {
          const response = await send(DeleteGroups, { groupsNames: [groupId] });
          const code =
            response.results.find((result) => result.groupId === groupId)?.errorCode ??
            ErrorCode.UNKNOWN_SERVER_ERROR;
          if (code !== ErrorCode.NONE) throw errorForCode(code, `Group "${groupId}".`);
        });
      } catch (error) {
        if (!(error instanceof WeirError)) throw error;
        failures.push({ item: groupId, error });
      }
    }),
  );
  if (failures.length > 0) throw new AdminItemsError('deleteGroups', failures, groupIds.length);
}

async function offsetsOf(
  client: Client,
  partitions: readonly { topic: string; partition: number }[],
  spec: OffsetSpec,
): Promise<Map<string, bigint>> {
  const results = await listOffsets(
    client,
    partitions.map(({ topic, partition }) => ({ topic, partition, spec })),
  );
  const offsets = new Map<string, bigint>();
  for (const [key, result] of results) {
    if (result instanceof WeirError) throw result;
    offsets.set(key, result.offset);
  }
  return offsets;
}

function byPartition(
  a: { topic: string; partition: number },
  b: { topic: string; partition: number },
): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}
