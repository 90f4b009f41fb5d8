import { ConsumerGroupLoad } from './consumer/consumer-group-loader';
import { type CommittedOffset, Group, partitionKey } from './group';
import { GroupMember } from './member';
import type { CoordinatorRecord, GroupRecordValue, OffsetRecordValue } from './offsets-records';

/**
 * Translation between live groups and `__consumer_offsets` records, both ways: the snapshot
 * written after a rebalance or when a group empties, and the rebuild at start.
 */

/**
 * The group metadata record of a group as it is now. `assignments` overrides the members' stored
 * assignments (the leader's SyncGroup is written before it is applied).
 */
export function groupRecordOf(group: Group, assignments?: ReadonlyMap<string, Buffer>): GroupRecordValue {
  const protocol = group.protocolName;
  return {
    protocolType: group.protocolType,
    generationId: group.generationId,
    protocolName: protocol,
    leaderId: group.isEmpty ? null : group.leaderId,
    stateTimestampMs: group.stateTimestampMs,
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      sessionTimeoutMs: member.sessionTimeoutMs,
      subscription: protocol === null ? Buffer.alloc(0) : member.metadataFor(protocol),
      assignment: assignments?.get(member.memberId) ?? member.assignment,
    })),
  };
}

export function offsetRecordOf(committed: CommittedOffset): OffsetRecordValue {
  return {
    offset: committed.offset,
    leaderEpoch: committed.leaderEpoch,
    metadata: committed.metadata,
    commitTimestampMs: committed.commitTimestampMs,
    expireTimestampMs: committed.expireTimestampMs,
  };
}

interface LoadedGroup {
  metadata: GroupRecordValue | undefined;
  /** The consumer-protocol (KIP-848) state, for a group of that protocol. */
  consumer: ConsumerGroupLoad | undefined;
  offsets: Map<string, { topic: string; partition: number; value: OffsetRecordValue }>;
}

/**
 * Accumulates the records of one partition in log order (later records replace earlier ones,
 * tombstones delete) and then builds the groups they describe.
 */
export class GroupLoader {
  readonly #groups = new Map<string, LoadedGroup>();

  apply(record: CoordinatorRecord): void {
    let loaded = this.#groups.get(record.groupId);
    if (!loaded) {
      loaded = { metadata: undefined, consumer: undefined, offsets: new Map() };
      this.#groups.set(record.groupId, loaded);
    }
    switch (record.kind) {
      case 'group':
        // A classic group's tombstone removes its metadata only: as in Kafka, committed offsets
        // have tombstones of their own (DeleteGroups and expiry write them), and a group that
        // switches to the consumer protocol keeps its offsets.
        loaded.metadata = record.value ?? undefined;
        return;
      case 'offset': {
        const key = partitionKey(record.topic, record.partition);
        if (record.value === null) loaded.offsets.delete(key);
        else
          loaded.offsets.set(key, { topic: record.topic, partition: record.partition, value: record.value });
        return;
      }
      default: {
        loaded.consumer ??= new ConsumerGroupLoad();
        if (!loaded.consumer.apply(record)) loaded.consumer = undefined;
      }
    }
  }

  /** The loaded state as records: each group's metadata, then its offsets. */
  records(): CoordinatorRecord[] {
    const records: CoordinatorRecord[] = [];
    for (const [groupId, loaded] of this.#groups) {
      if (loaded.metadata !== undefined) records.push({ kind: 'group', groupId, value: loaded.metadata });
      if (loaded.consumer !== undefined) records.push(...loaded.consumer.records(groupId));
      for (const { topic, partition, value } of loaded.offsets.values()) {
        records.push({ kind: 'offset', groupId, topic, partition, value });
      }
    }
    return records;
  }

  /**
   * The groups, ready to serve. A consumer-protocol group comes back with its epochs, members and
   * assignments (consumer/consumer-group-loader.ts). A classic group with members comes back Stable in its stored generation
   * (the members keep their assignments and only have to keep heartbeating); one without members
   * comes back Empty with the state time it was stored with, so offset expiry continues where it
   * was. A group whose metadata was deleted but that still has offsets is a plain offset store.
   */
  build(nowMs: number): Group[] {
    const groups: Group[] = [];
    for (const [groupId, loaded] of this.#groups) {
      const consumer = loaded.consumer?.build(groupId);
      // A group is one protocol or the other; a switch writes the other's tombstone with its records.
      const metadata = consumer ? undefined : loaded.metadata;
      if (!metadata && !consumer && loaded.offsets.size === 0) continue;
      const hasMembers = (metadata?.members.length ?? 0) > 0;
      const group = new Group(
        groupId,
        hasMembers ? 'Stable' : 'Empty',
        hasMembers ? nowMs : (metadata?.stateTimestampMs ?? nowMs),
      );
      if (metadata) restoreMetadata(group, metadata);
      if (consumer) group.consumer = consumer;
      for (const { topic, partition, value } of loaded.offsets.values()) {
        group.setCommittedOffset(topic, partition, {
          offset: value.offset,
          leaderEpoch: value.leaderEpoch,
          metadata: value.metadata ?? '',
          commitTimestampMs: value.commitTimestampMs,
          expireTimestampMs: value.expireTimestampMs,
          sequence: 0,
        });
      }
      groups.push(group);
    }
    return groups;
  }
}

function restoreMetadata(group: Group, metadata: GroupRecordValue): void {
  group.generationId = metadata.generationId;
  group.protocolType = metadata.protocolType;
  group.protocolName = metadata.protocolName;
  for (const stored of metadata.members) {
    const member = new GroupMember({
      memberId: stored.memberId,
      groupInstanceId: stored.groupInstanceId,
      clientId: stored.clientId,
      clientHost: stored.clientHost,
      sessionTimeoutMs: stored.sessionTimeoutMs,
      rebalanceTimeoutMs: stored.rebalanceTimeoutMs,
      protocolType: metadata.protocolType ?? '',
      // Only the chosen protocol's metadata is stored; it is all a later join is compared with.
      protocols:
        metadata.protocolName === null
          ? []
          : [{ name: metadata.protocolName, metadata: stored.subscription }],
    });
    member.assignment = stored.assignment;
    group.add(member);
  }
  // `add` made the first member leader; the stored leader wins when it is still a member.
  if (metadata.leaderId !== null && group.members.has(metadata.leaderId)) group.leaderId = metadata.leaderId;
  if (metadata.protocolType !== null) group.protocolType = metadata.protocolType;
  group.refreshSubscribedTopics();
}
