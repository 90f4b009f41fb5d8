import { decodeConsumerAssignment, decodeConsumerSubscription } from '@weir/protocol';
import { AssignerProtocol } from 'kafkajs';
import type { Broker } from '../src/broker';
import type { GroupCoordinatorConfig, PartitionCatalog } from '../src/group/coordinator-context';
import { GroupCoordinator } from '../src/group/group-coordinator';
import type { JoinRequest } from '../src/group/group-membership';
import type { GroupScheduler } from '../src/group/group-scheduler';
import type { CoordinatorRecord } from '../src/group/offsets-records';
import type { GroupLogSource, GroupStore, ReplayReport } from '../src/group/offsets-topic';

interface ScheduledTask {
  atMs: number;
  order: number;
  task: () => void;
  cancelled: boolean;
}

/** A fake clock: tasks run only when the test advances time, in deadline order. */
export class ManualScheduler implements GroupScheduler {
  #nowMs = 1_000_000;
  #order = 0;
  #tasks: ScheduledTask[] = [];

  nowMs(): number {
    return this.#nowMs;
  }

  schedule(delayMs: number, task: () => void): () => void {
    const entry = { atMs: this.#nowMs + Math.max(0, delayMs), order: this.#order++, task, cancelled: false };
    this.#tasks.push(entry);
    return () => {
      entry.cancelled = true;
    };
  }

  /** Moves the clock forward, running every task that falls due on the way (also new ones). */
  advance(deltaMs: number): void {
    const targetMs = this.#nowMs + deltaMs;
    for (;;) {
      this.#tasks = this.#tasks.filter((task) => !task.cancelled);
      const due = this.#tasks
        .filter((task) => task.atMs <= targetMs)
        .sort((left, right) => left.atMs - right.atMs || left.order - right.order)[0];
      if (!due) break;
      this.#tasks.splice(this.#tasks.indexOf(due), 1);
      this.#nowMs = Math.max(this.#nowMs, due.atMs);
      due.task();
    }
    this.#nowMs = targetMs;
  }

  get pendingTasks(): number {
    return this.#tasks.filter((task) => !task.cancelled).length;
  }
}

/** An in-memory `__consumer_offsets`: keeps every record per partition, can fail on demand. */
export class MemoryGroupStore implements GroupStore, GroupLogSource {
  readonly partitions: CoordinatorRecord[][];
  /** The partition and leader epoch of every write, in order. */
  readonly writes: { partition: number; leaderEpoch: number }[] = [];
  failWith: Error | undefined;

  constructor(readonly partitionCount = 4) {
    this.partitions = Array.from({ length: partitionCount }, () => []);
  }

  async write(partition: number, leaderEpoch: number, records: readonly CoordinatorRecord[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.writes.push({ partition, leaderEpoch });
    this.partitions[partition]!.push(...records);
  }

  get written(): CoordinatorRecord[] {
    return this.partitions.flat();
  }

  async replay(
    partition: number,
    _leaderEpoch: number,
    onRecord: (record: CoordinatorRecord) => void,
  ): Promise<ReplayReport> {
    for (const record of this.partitions[partition]!) onRecord(record);
    return { records: this.partitions[partition]!.length, skipped: 0, outdated: 0 };
  }
}

/**
 * A replay source whose replays wait until the test releases them: each replay first reads the
 * records, then parks until {@link release} (or {@link fail}) is called for its partition, so a
 * test can send requests while a partition is loading and then decide how the load ends.
 */
export class HeldReplaySource<R> {
  readonly #held = new Map<number, { resolve: () => void; reject: (error: Error) => void }[]>();
  /** The partition and leader epoch of every replay started, in order. */
  readonly started: { partition: number; leaderEpoch: number }[] = [];

  constructor(
    private readonly inner: {
      readonly partitionCount: number;
      replay(partition: number, leaderEpoch: number, onRecord: (record: R) => void): Promise<ReplayReport>;
    },
  ) {}

  get partitionCount(): number {
    return this.inner.partitionCount;
  }

  async replay(partition: number, leaderEpoch: number, onRecord: (record: R) => void): Promise<ReplayReport> {
    this.started.push({ partition, leaderEpoch });
    const report = await this.inner.replay(partition, leaderEpoch, onRecord);
    await new Promise<void>((resolve, reject) => {
      const waiting = this.#held.get(partition) ?? [];
      waiting.push({ resolve, reject });
      this.#held.set(partition, waiting);
    });
    return report;
  }

  /** How many replays of the partition are parked. */
  heldCount(partition: number): number {
    return this.#held.get(partition)?.length ?? 0;
  }

  /** Lets the oldest parked replay of the partition finish. */
  release(partition: number): void {
    this.#next(partition).resolve();
  }

  /** Makes the oldest parked replay of the partition throw. */
  fail(partition: number, error: Error): void {
    this.#next(partition).reject(error);
  }

  #next(partition: number): { resolve: () => void; reject: (error: Error) => void } {
    const next = this.#held.get(partition)?.shift();
    if (!next) throw new Error(`no replay of partition ${partition} is held`);
    return next;
  }
}

export const TEST_GROUP_CONFIG: GroupCoordinatorConfig = {
  initialRebalanceDelayMs: 3000,
  minSessionTimeoutMs: 1000,
  maxSessionTimeoutMs: 60_000,
  offsetsRetentionMs: 60 * 60_000,
  offsetsRetentionCheckIntervalMs: 60_000,
  maxOffsetMetadataBytes: 4096,
  consumerHeartbeatIntervalMs: 500,
  consumerSessionTimeoutMs: 10_000,
};

/** The topics of the coordinator tests: t0…t9, four partitions each, with fixed ids. */
export const TEST_TOPIC_PARTITIONS = 4;

export function testTopicId(name: string): string {
  const index = Number(name.slice(1));
  return `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
}

export const TEST_CATALOG: PartitionCatalog = {
  hasPartition: (topic, partition) =>
    /^t\d$/.test(topic) && partition >= 0 && partition < TEST_TOPIC_PARTITIONS,
  topic: (name) =>
    /^t\d$/.test(name)
      ? { name, topicId: testTopicId(name), partitionCount: TEST_TOPIC_PARTITIONS }
      : undefined,
  topicById: (topicId) => {
    const match = /^00000000-0000-4000-8000-(\d{12})$/.exec(topicId);
    const index = match ? Number(match[1]) - 1 : -1;
    return index >= 0 && index <= 9
      ? { name: `t${index}`, topicId, partitionCount: TEST_TOPIC_PARTITIONS }
      : undefined;
  },
};

export interface CoordinatorFixture {
  coordinator: GroupCoordinator;
  scheduler: ManualScheduler;
  store: MemoryGroupStore;
  logs: string[];
}

/** A coordinator over `store` and a manual clock, its log lines collected; topics t0..t2 have 4 partitions. */
function testCoordinator(
  store: MemoryGroupStore,
  scheduler: ManualScheduler,
  source: GroupLogSource,
  overrides: Partial<GroupCoordinatorConfig> = {},
): { coordinator: GroupCoordinator; logs: string[] } {
  const logs: string[] = [];
  const coordinator = new GroupCoordinator({
    config: { ...TEST_GROUP_CONFIG, ...overrides },
    store,
    scheduler,
    logger: {
      info: (_fields, message) => logs.push(message),
      warn: (_fields, message) => logs.push(message),
    },
    catalog: TEST_CATALOG,
    source,
  });
  return { coordinator, logs };
}

/** A loaded coordinator over an in-memory store and a manual clock. Topics t0..t2 have 4 partitions. */
export async function loadedCoordinator(
  overrides: Partial<GroupCoordinatorConfig> = {},
  existing?: { store: MemoryGroupStore; scheduler: ManualScheduler },
): Promise<CoordinatorFixture> {
  const scheduler = existing?.scheduler ?? new ManualScheduler();
  const store = existing?.store ?? new MemoryGroupStore();
  const { coordinator, logs } = testCoordinator(store, scheduler, store, overrides);
  await leadEveryPartition(coordinator, store.partitionCount);
  return { coordinator, scheduler, store, logs };
}

/** What a standalone broker's replica layer does at start: this broker leads every partition at epoch 0. */
export async function leadEveryPartition(
  coordinator: GroupCoordinator,
  partitionCount: number,
): Promise<void> {
  await Promise.all(
    Array.from({ length: partitionCount }, (_, partition) => coordinator.onBecomeLeader(partition, 0)),
  );
}

/**
 * A coordinator that leads no `__consumer_offsets` partition yet, over an in-memory topic whose
 * replays the test releases ({@link HeldReplaySource}); topics t0..t2 have 4 partitions.
 */
export function unledGroupCoordinator(
  options: { partitionCount?: number; scheduler?: ManualScheduler } = {},
) {
  const store = new MemoryGroupStore(options.partitionCount ?? 4);
  const source = new HeldReplaySource<CoordinatorRecord>(store);
  const scheduler = options.scheduler ?? new ManualScheduler();
  const { coordinator, logs } = testCoordinator(store, scheduler, source);
  return { coordinator, store, source, scheduler, logs };
}

/** A group id that hashes to `partition` of the coordinator's offsets topic. */
export function groupOn(coordinator: GroupCoordinator, partition: number, prefix = 'group'): string {
  for (let index = 0; ; index++) {
    const groupId = `${prefix}-${index}`;
    if (coordinator.partitionOf(groupId) === partition) return groupId;
  }
}

/** Consumer-protocol subscription bytes, as kafkajs writes them. */
export function subscription(topics: string[]): Buffer {
  return AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) });
}

/** Consumer-protocol assignment bytes, as kafkajs writes them. */
export function assignment(partitions: Record<string, number[]>): Buffer {
  return AssignerProtocol.MemberAssignment.encode({
    version: 0,
    assignment: partitions,
    userData: Buffer.alloc(0),
  });
}

export function joinRequest(overrides: Partial<JoinRequest> = {}): JoinRequest {
  return {
    groupId: 'g',
    memberId: '',
    groupInstanceId: null,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 20_000,
    protocolType: 'consumer',
    protocols: [{ name: 'range', metadata: subscription(['t0']) }],
    clientId: 'client',
    clientHost: '127.0.0.1',
    requireKnownMemberId: false,
    ...overrides,
  };
}

/** Lets promise continuations (store writes, held answers) run. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise has settled, without awaiting it. */
export function track<T>(promise: Promise<T>): { readonly done: boolean; readonly value: T | undefined } {
  const state: { done: boolean; value: T | undefined } = { done: false, value: undefined };
  void promise.then((value) => {
    state.done = true;
    state.value = value;
  });
  return state;
}

/**
 * Calls `probe` until it returns something truthy, at most `timeoutMs`; a bounded wait for state
 * that has no event to await (another process, a client library's internals).
 */
export async function pollUntil<T>(
  probe: () => T | Promise<T>,
  what: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadlineMs = Date.now() + (options.timeoutMs ?? 20_000);
  let last: T | undefined;
  while (Date.now() < deadlineMs) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/**
 * A group's lag as the broker's one lag view computes it (operator/group-lag.ts), in numbers;
 * undefined when the group does not exist.
 */
export function lagOf(broker: Broker, groupId: string) {
  const { groups } = broker.services.operator.groupLags.describeGroupLags([groupId]);
  const group = groups[0];
  if (group === undefined) return undefined;
  return {
    state: group.state,
    totalLag: Number(group.totalLag),
    partitions: group.partitions.map((row) => ({
      topic: row.topic,
      partition: row.partition,
      committedOffset: row.committedOffset < 0n ? null : Number(row.committedOffset),
      highWatermark: Number(row.logEndOffset),
      lag: Number(row.lag),
      memberId: row.memberId,
    })),
  };
}

/** A consumer group as DescribeGroups answers it, its members' subscriptions and assignments decoded. */
export function describedConsumerGroup(broker: Broker, groupId: string) {
  const described = broker.services.groups.describeGroup(groupId);
  return {
    ...described,
    protocol: described.protocolData,
    members: described.members.map((member) => ({
      ...member,
      subscription: decodeConsumerSubscription(member.metadata) ?? null,
      assignment: decodeConsumerAssignment(member.assignment) ?? null,
    })),
  };
}

/** Commits `offset` for t0-0 as a simple (generation -1) consumer of `groupId`. */
export function commitOne(coordinator: GroupCoordinator, groupId: string, offset: number) {
  return coordinator.commit({
    groupId,
    generationId: -1,
    memberId: '',
    groupInstanceId: null,
    retentionTimeMs: -1,
    apiVersion: 7,
    topics: [
      {
        name: 't0',
        partitions: [
          { partitionIndex: 0, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: null },
        ],
      },
    ],
  });
}
