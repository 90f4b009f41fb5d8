import { ErrorCode, WeirError } from '@weir/protocol';
import type { NewPartitionAssignment } from '../metadata/metadata-store';

/** Where a topic's new partitions go: computed from a replication factor, or given per partition. */
export type PlacementRequest =
  | { kind: 'factor'; replicationFactor: number }
  | { kind: 'explicit'; replicas: readonly (readonly number[])[] };

/**
 * Chooses the replicas of partitions `firstPartition ..` of a topic among the live brokers, the
 * way Kafka spreads them without racks (AdminUtils.assignReplicasToBrokersRackUnaware): the
 * preferred leaders go round the brokers from a starting broker, and each partition's followers
 * follow its leader at a shift that changes every time the round completes, so leaders and
 * followers both spread evenly. The first replica is the preferred leader; a new partition starts
 * led by it at epoch 0 with every replica in sync (they are all empty).
 *
 * Explicit replicas (CreateTopics and CreatePartitions assignments) are checked instead: every
 * partition the same number of replicas, no broker twice, every broker live.
 */
export function placePartitions(
  topic: string,
  firstPartition: number,
  count: number,
  request: PlacementRequest,
  liveBrokerIds: readonly number[],
  startIndex = 0,
  /** Each live broker's rack (`broker.rack`); when any has one, replicas spread over racks too. */
  racks: ReadonlyMap<number, string | null> = new Map(),
): NewPartitionAssignment[] {
  const hasRacks = liveBrokerIds.some((id) => (racks.get(id) ?? null) !== null);
  const replicasOf =
    request.kind === 'explicit'
      ? checkExplicit(request.replicas, count, liveBrokerIds)
      : hasRacks
        ? spreadOverRacks(count, firstPartition, request.replicationFactor, liveBrokerIds, racks, startIndex)
        : spread(count, firstPartition, request.replicationFactor, liveBrokerIds, startIndex);
  return replicasOf.map((replicas, index) => ({
    topic,
    partition: firstPartition + index,
    replicas,
    leader: replicas[0]!,
    leaderEpoch: 0,
    isr: [...replicas],
  }));
}

/** Refuses a replication factor the live brokers cannot hold, naming both numbers. */
export function checkReplicationFactor(replicationFactor: number, liveBrokerCount: number): void {
  if (!Number.isInteger(replicationFactor) || replicationFactor < 1) {
    throw new WeirError(ErrorCode.INVALID_REPLICATION_FACTOR, {
      detail: `replication factor ${replicationFactor} must be at least 1`,
    });
  }
  if (replicationFactor > liveBrokerCount) {
    throw new WeirError(ErrorCode.INVALID_REPLICATION_FACTOR, {
      detail: `replication factor ${replicationFactor} is larger than the ${liveBrokerCount} live broker${liveBrokerCount === 1 ? '' : 's'}`,
    });
  }
}

function spread(
  count: number,
  firstPartition: number,
  replicationFactor: number,
  liveBrokerIds: readonly number[],
  startIndex: number,
): number[][] {
  checkReplicationFactor(replicationFactor, liveBrokerIds.length);
  const brokers = [...liveBrokerIds].sort((left, right) => left - right);
  const brokerCount = brokers.length;
  const placed: number[][] = [];
  for (let index = 0; index < count; index++) {
    const partition = firstPartition + index;
    const leaderIndex = (startIndex + partition) % brokerCount;
    // The followers' shift grows by one each time the leaders have gone round all brokers.
    const shift = 1 + (Math.floor((startIndex + partition) / brokerCount) % Math.max(1, brokerCount - 1));
    const replicas = [brokers[leaderIndex]!];
    for (let follower = 0; follower < replicationFactor - 1; follower++) {
      const offset = 1 + ((shift - 1 + follower) % (brokerCount - 1));
      replicas.push(brokers[(leaderIndex + offset) % brokerCount]!);
    }
    placed.push(replicas);
  }
  return placed;
}

/**
 * Kafka's rack-aware spread (AdminUtils.assignReplicasToBrokersRackAware): the brokers are listed
 * alternating between racks, leaders go round that list, and each follower is the next broker in
 * the list from a shifting start whose rack holds no replica of the partition yet, until every rack
 * has one; only then may a rack hold a second. A broker without a rack counts as a rack of its own.
 */
function spreadOverRacks(
  count: number,
  firstPartition: number,
  replicationFactor: number,
  liveBrokerIds: readonly number[],
  racks: ReadonlyMap<number, string | null>,
  startIndex: number,
): number[][] {
  checkReplicationFactor(replicationFactor, liveBrokerIds.length);
  const rackOf = (id: number) => racks.get(id) ?? `(broker ${id})`;
  const byRack = new Map<string, number[]>();
  for (const id of [...liveBrokerIds].sort((left, right) => left - right)) {
    const list = byRack.get(rackOf(id)) ?? [];
    list.push(id);
    byRack.set(rackOf(id), list);
  }
  const rackNames = [...byRack.keys()].sort();
  const alternated: number[] = [];
  for (let round = 0; alternated.length < liveBrokerIds.length; round++) {
    for (const rack of rackNames) {
      const id = byRack.get(rack)![round];
      if (id !== undefined) alternated.push(id);
    }
  }
  const brokerCount = alternated.length;
  const placed: number[][] = [];
  for (let index = 0; index < count; index++) {
    const partition = firstPartition + index;
    const leaderIndex = (startIndex + partition) % brokerCount;
    const shift = 1 + (Math.floor((startIndex + partition) / brokerCount) % Math.max(1, brokerCount - 1));
    const replicas = [alternated[leaderIndex]!];
    const racksUsed = new Set([rackOf(replicas[0]!)]);
    for (let step = 0; replicas.length < replicationFactor && step < brokerCount * 2; step++) {
      const candidate = alternated[(leaderIndex + shift + step) % brokerCount]!;
      if (replicas.includes(candidate)) continue;
      const everyRackUsed = racksUsed.size === rackNames.length;
      if (!everyRackUsed && racksUsed.has(rackOf(candidate))) continue;
      replicas.push(candidate);
      racksUsed.add(rackOf(candidate));
    }
    placed.push(replicas);
  }
  return placed;
}

function checkExplicit(
  replicas: readonly (readonly number[])[],
  count: number,
  liveBrokerIds: readonly number[],
): number[][] {
  if (replicas.length !== count) {
    throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
      detail: `${replicas.length} replica assignments for ${count} new partitions`,
    });
  }
  const live = new Set(liveBrokerIds);
  const factor = replicas[0]?.length ?? 0;
  return replicas.map((list, index) => {
    if (list.length === 0 || list.length !== factor) {
      throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
        detail: `every partition needs the same number of replicas (${factor}); assignment ${index} has ${list.length}`,
      });
    }
    if (new Set(list).size !== list.length) {
      throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
        detail: `replicas [${list.join(', ')}] name a broker twice`,
      });
    }
    const missing = list.filter((brokerId) => !live.has(brokerId));
    if (missing.length > 0) {
      throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
        detail: `replicas [${list.join(', ')}] name broker${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not live (live: ${[...live].sort((a, b) => a - b).join(', ') || 'none'})`,
      });
    }
    return [...list];
  });
}
