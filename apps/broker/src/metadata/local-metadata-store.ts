import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type AclBinding, ErrorCode, sameAclBinding, WeirError } from '@weir/protocol';
import { StorageError, type StorageIo } from '../log/storage';
import type { AssignmentChangeCause } from './assignment-change';
import {
  assignmentEvents,
  type ClusterEvent,
  type ClusterEventRetention,
  type NewClusterEvent,
  type StoredEventQuery,
  withChangeTimes,
} from './cluster-events';
import { LocalClusterEvents } from './local-cluster-events';
import {
  assignmentOf,
  emptyMetadataFile,
  type MetadataFile,
  parseMetadataFile,
  type StoredTopic,
  topicRecordOf,
} from './local-metadata-file';
import type {
  BrokerConfigOverrides,
  BrokerRegistration,
  ClientQuotaAlteration,
  ClientQuotaEntity,
  ClientQuotaRecord,
  MetadataStore,
  NewPartitionAssignment,
  PartitionAssignment,
  PlacementChange,
  PlacementImage,
  PlacementListener,
  ProducerIdBlock,
  ScramCredentialRecord,
  TopicRecord,
  UserRecord,
} from './metadata-store';
import { userWithoutMechanisms } from './user-records';

const METADATA_FILE = 'metadata.json';

/** A change waiting for the next write of the catalogue; it returns the placement changes it made. */
interface PendingChange {
  readonly change: (state: MetadataFile) => PlacementChange[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export interface LocalMetadataStoreOptions {
  /** The cluster id a first start writes; a later start keeps the stored one. */
  clusterId?: string | undefined;
  /** This broker's id (`nodeId`): the only broker and the controller of a local catalogue. */
  brokerId: number;
  /** How long and how many timeline events the events file keeps (7 days and 50,000 unless set). */
  eventsRetention?: ClusterEventRetention;
  /** The wall clock events are stamped with (epoch ms). */
  now?: () => number;
}

/**
 * The embedded metadata store of a standalone broker: one JSON file in the data directory,
 * replaced atomically (write a temporary file, fsync, rename, fsync the directory) on every change,
 * so a crash leaves the old or the new catalogue and never a mix. Reads come from memory.
 *
 * Changes are group-committed: those that arrive while a write is under way go into the next
 * write together, so creating thousands of topics costs a few dozen file replacements instead of
 * one each (each replacement rewrites the whole catalogue). Each write that changed placement is
 * one revision, announced to the watchers once it is durable.
 *
 * A local catalogue is a single-broker cluster: this broker is its controller, and broker
 * registrations live in memory only, since a broker that is not running is not live.
 */
export class LocalMetadataStore implements MetadataStore {
  readonly #path: string;
  #state: MetadataFile | undefined;
  /** Users by name, for every authentication; rebuilt whenever the state is replaced. */
  #usersByName = new Map<string, UserRecord>();
  readonly #brokers = new Map<number, BrokerRegistration>();
  readonly #listeners = new Set<PlacementListener>();
  #revision = 0;
  #pending: PendingChange[] = [];
  #writing = false;
  readonly #events: LocalClusterEvents;

  constructor(
    private readonly io: StorageIo,
    dataDirectory: string,
    private readonly options: LocalMetadataStoreOptions,
  ) {
    this.#path = join(dataDirectory, METADATA_FILE);
    this.#events = new LocalClusterEvents(
      io,
      dataDirectory,
      options.eventsRetention ?? { retentionMs: 7 * 24 * 60 * 60 * 1000, maxCount: 50_000 },
      () => this.#now(),
    );
  }

  async load(): Promise<void> {
    await this.#events.load();
    let text: string | undefined;
    try {
      text = (await this.io.readWholeFile(this.#path)).toString('utf8');
    } catch (error) {
      if (!(error instanceof StorageError && error.isNotFound)) throw error;
    }
    if (text === undefined) {
      const fresh = emptyMetadataFile(this.options.clusterId ?? randomUUID(), this.options.brokerId);
      await this.#write(fresh);
      this.#install(fresh);
      return;
    }
    this.#install(parseMetadataFile(text, this.#path, this.options.brokerId));
  }

  clusterId(): string {
    return this.#loaded.clusterId;
  }

  snapshot(): PlacementImage {
    const state = this.#loaded;
    return {
      revision: this.#revision,
      clusterId: state.clusterId,
      controllerId: this.options.brokerId,
      brokers: [...this.#brokers.values()],
      topics: state.topics.map(topicRecordOf),
      assignments: state.topics.flatMap((topic) =>
        (topic.assignments ?? []).map((stored, partition) => assignmentOf(topic.name, partition, stored)),
      ),
    };
  }

  watch(listener: PlacementListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async registerBroker(broker: BrokerRegistration): Promise<BrokerRegistration> {
    if (broker.brokerId !== this.options.brokerId) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `broker ${broker.brokerId} cannot join the local catalogue of broker ${this.options.brokerId}`,
      });
    }
    this.#brokers.set(broker.brokerId, broker);
    this.#announce([{ kind: 'broker', brokerId: broker.brokerId, broker }]);
    await this.#events.append([
      {
        atMs: this.#now(),
        kind: 'broker-session-started',
        brokerId: broker.brokerId,
        sessionId: broker.sessionId,
      },
    ]);
    return broker;
  }

  onSession(): () => void {
    // A local catalogue has no lease to lose.
    return () => undefined;
  }

  holdsControllerTitle(): boolean {
    return true;
  }

  async close(): Promise<void> {
    // Nothing is held open between writes.
  }

  async unregisterBroker(brokerId: number, sessionId: string): Promise<void> {
    if (this.#brokers.get(brokerId)?.sessionId !== sessionId) return;
    this.#brokers.delete(brokerId);
    this.#announce([{ kind: 'broker', brokerId, broker: undefined }]);
    await this.#events.append([
      { atMs: this.#now(), kind: 'broker-session-ended', brokerId, sessionId, detail: 'stopped' },
    ]);
  }

  createTopic(topic: TopicRecord, assignments: readonly NewPartitionAssignment[]): Promise<void> {
    return this.#mutate((state) => {
      // TopicManager checked this already; a concurrent create of the same name can still get here.
      if (state.topics.some((existing) => existing.name === topic.name)) {
        throw new WeirError(ErrorCode.TOPIC_ALREADY_EXISTS, {
          detail: `topic "${topic.name}" already exists`,
        });
      }
      assertAssignmentsFor(topic.name, 0, topic.partitionCount, assignments);
      const stored: StoredTopic = {
        ...topic,
        configs: { ...topic.configs },
        assignments: assignments.map(storedAssignment),
      };
      state.topics.push(stored);
      return [
        { kind: 'topic', name: topic.name, topic: topicRecordOf(stored) },
        ...assignmentChanges(stored, 0),
      ];
    });
  }

  deleteTopic(name: string): Promise<void> {
    return this.#mutate((state) => {
      const stored = state.topics.find((topic) => topic.name === name);
      if (stored === undefined) return [];
      state.topics = state.topics.filter((topic) => topic !== stored);
      return [
        { kind: 'topic', name, topic: undefined },
        ...Array.from(
          { length: stored.partitionCount },
          (_, partition): PlacementChange => ({
            kind: 'assignment',
            topic: name,
            partition,
            assignment: undefined,
          }),
        ),
      ];
    });
  }

  setTopicConfigs(name: string, configs: Record<string, string>): Promise<void> {
    return this.#mutate((state) => {
      const stored = topicIn(state, name);
      stored.configs = { ...configs };
      return [{ kind: 'topic', name, topic: topicRecordOf(stored) }];
    });
  }

  addPartitions(name: string, assignments: readonly NewPartitionAssignment[]): Promise<void> {
    return this.#mutate((state) => {
      const stored = topicIn(state, name);
      const first = stored.partitionCount;
      assertAssignmentsFor(name, first, first + assignments.length, assignments);
      stored.assignments = [...(stored.assignments ?? []), ...assignments.map(storedAssignment)];
      stored.partitionCount += assignments.length;
      return [{ kind: 'topic', name, topic: topicRecordOf(stored) }, ...assignmentChanges(stored, first)];
    });
  }

  async listClusterEvents(query: StoredEventQuery): Promise<ClusterEvent[]> {
    return this.#events.list(query);
  }

  /** Drops timeline events past the retention (the broker calls this periodically). */
  pruneClusterEvents(): Promise<void> {
    return this.#events.prune();
  }

  async compareAndSetAssignment(
    next: PartitionAssignment,
    _fence?: unknown,
    cause?: AssignmentChangeCause,
  ): Promise<PartitionAssignment> {
    let written: PartitionAssignment | undefined;
    let events: NewClusterEvent[] = [];
    await this.#mutate((state) => {
      const stored = state.topics.find((topic) => topic.name === next.topic);
      const current = stored?.assignments?.[next.partition];
      if (stored === undefined || current === undefined) {
        throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
          detail: `${next.topic}-${next.partition} does not exist`,
        });
      }
      if (current.version !== next.version) {
        throw new WeirError(ErrorCode.INVALID_UPDATE_VERSION, {
          detail: `${next.topic}-${next.partition} is at version ${current.version}, not ${next.version}`,
        });
      }
      const atMs = this.#now();
      const previous = assignmentOf(next.topic, next.partition, current);
      events = assignmentEvents(previous, next, cause, atMs);
      const replaced = storedAssignment(withChangeTimes(previous, next, atMs));
      replaced.version = current.version + 1;
      stored.assignments![next.partition] = replaced;
      written = assignmentOf(next.topic, next.partition, replaced);
      return [{ kind: 'assignment', topic: next.topic, partition: next.partition, assignment: written }];
    });
    // The events file is written after the catalogue: a crash between the two loses the events
    // of a change, never records a change that did not happen.
    await this.#events.append(events);
    return written!;
  }

  async allocateProducerIdBlock(count: number): Promise<ProducerIdBlock> {
    let block: ProducerIdBlock | undefined;
    await this.#mutate((state) => {
      block = { firstProducerId: state.nextProducerId, count };
      state.nextProducerId += count;
      return [];
    });
    return block!;
  }

  listUsers(): readonly UserRecord[] {
    return this.#loaded.users;
  }

  getUser(name: string): UserRecord | undefined {
    if (!this.#state) throw new Error('the metadata store is used before load()');
    return this.#usersByName.get(name);
  }

  putUserCredential(name: string, mechanism: string, credential: ScramCredentialRecord): Promise<void> {
    return this.#mutate((state) => {
      const user = state.users.find((candidate) => candidate.name === name);
      if (user === undefined) state.users.push({ name, credentials: { [mechanism]: { ...credential } } });
      else user.credentials[mechanism] = { ...credential };
      return [];
    });
  }

  deleteUser(name: string, mechanisms?: readonly string[]): Promise<void> {
    return this.#mutate((state) => {
      const user = state.users.find((candidate) => candidate.name === name);
      const next = userWithoutMechanisms(name, user, mechanisms);
      state.users = state.users.flatMap((candidate) =>
        candidate !== user ? [candidate] : next ? [next] : [],
      );
      return [];
    });
  }

  listAcls(): readonly AclBinding[] {
    return this.#loaded.acls;
  }

  addAcls(bindings: readonly AclBinding[]): Promise<void> {
    return this.#mutate((state) => {
      for (const binding of bindings) {
        if (!state.acls.some((stored) => sameAclBinding(stored, binding))) state.acls.push({ ...binding });
      }
      return [];
    });
  }

  async removeAcls(selects: (binding: AclBinding) => boolean): Promise<AclBinding[]> {
    let removed: AclBinding[] = [];
    await this.#mutate((state) => {
      removed = state.acls.filter(selects);
      if (removed.length > 0) state.acls = state.acls.filter((binding) => !selects(binding));
      return [];
    });
    return removed;
  }

  listClientQuotas(): readonly ClientQuotaRecord[] {
    return this.#loaded.clientQuotas;
  }

  alterClientQuotas(alterations: readonly ClientQuotaAlteration[]): Promise<void> {
    return this.#mutate((state) => {
      for (const { entity, set, remove } of alterations) {
        const index = state.clientQuotas.findIndex((stored) => sameQuotaEntity(stored.entity, entity));
        const values: Record<string, number> = { ...(state.clientQuotas[index]?.values ?? {}), ...set };
        for (const key of remove) delete values[key];
        const stored = { entity: storedQuotaEntity(entity), values };
        if (index < 0) {
          if (Object.keys(values).length > 0) state.clientQuotas.push(stored);
        } else if (Object.keys(values).length > 0) state.clientQuotas[index] = stored;
        else state.clientQuotas.splice(index, 1);
      }
      return [];
    });
  }

  listBrokerConfigs(): readonly BrokerConfigOverrides[] {
    return this.#loaded.brokerConfigs;
  }

  setBrokerConfigs(scope: string, configs: Record<string, string>): Promise<void> {
    return this.#mutate((state) => {
      const rest = state.brokerConfigs.filter((stored) => stored.scope !== scope);
      state.brokerConfigs =
        Object.keys(configs).length === 0 ? rest : [...rest, { scope, configs: { ...configs } }];
      return [];
    });
  }

  get #loaded(): MetadataFile {
    if (!this.#state) throw new Error('the metadata store is used before load()');
    return this.#state;
  }

  /**
   * Queues a change for the next write and resolves once it is durable. Changes validate before
   * they modify anything, so one that throws is refused alone and leaves the shared copy as it was.
   */
  #mutate(change: (state: MetadataFile) => PlacementChange[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ change, resolve, reject });
      if (!this.#writing) void this.#writePending();
    });
  }

  /**
   * Applies the queued changes to a copy, persists the copy, then makes it current and announces
   * what changed: readers never see a change that is not yet durable, and a failed write leaves
   * the old state in place (and fails every change it carried).
   */
  async #writePending(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0);
        const next = structuredClone(this.#loaded);
        const applied: PendingChange[] = [];
        const changes: PlacementChange[] = [];
        for (const item of batch) {
          try {
            changes.push(...item.change(next));
            applied.push(item);
          } catch (error) {
            item.reject(error);
          }
        }
        if (applied.length === 0) continue;
        try {
          await this.#write(next);
        } catch (error) {
          for (const item of applied) item.reject(error);
          continue;
        }
        this.#install(next);
        if (changes.length > 0) this.#announce(changes);
        for (const item of applied) item.resolve();
      }
    } finally {
      this.#writing = false;
    }
  }

  #announce(changes: readonly PlacementChange[]): void {
    this.#revision += 1;
    for (const listener of this.#listeners) listener(changes, this.#revision);
  }

  #install(state: MetadataFile): void {
    this.#state = state;
    this.#usersByName = new Map(state.users.map((user) => [user.name, user]));
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }

  async #write(state: MetadataFile): Promise<void> {
    await this.io.writeFileAtomic(this.#path, Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8'));
  }
}

/** Two entities are the same when each type is absent from both or has the same name in both. */
function sameQuotaEntity(left: ClientQuotaEntity, right: ClientQuotaEntity): boolean {
  return left.user === right.user && left.clientId === right.clientId;
}

/** The entity as stored: only the types it has, so JSON keeps absent and default (null) apart. */
function storedQuotaEntity(entity: ClientQuotaEntity): ClientQuotaEntity {
  const stored: ClientQuotaEntity = {};
  if (entity.user !== undefined) stored.user = entity.user;
  if (entity.clientId !== undefined) stored.clientId = entity.clientId;
  return stored;
}

function topicIn(state: MetadataFile, name: string): StoredTopic {
  const stored = state.topics.find((topic) => topic.name === name);
  if (stored === undefined) {
    throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `topic "${name}" does not exist` });
  }
  return stored;
}

/** The caller (TopicManager) builds assignments from the catalogue; a wrong set is its bug. */
function assertAssignmentsFor(
  topic: string,
  first: number,
  end: number,
  assignments: readonly NewPartitionAssignment[],
): void {
  const numbers = assignments.map((assignment) => assignment.partition);
  const expected = Array.from({ length: end - first }, (_, index) => first + index);
  const wrongTopic = assignments.find((assignment) => assignment.topic !== topic);
  if (wrongTopic !== undefined || numbers.join(',') !== expected.join(',')) {
    throw new Error(
      `assignments for ${topic} must cover partitions ${first}..${end - 1} in order, got [${numbers.join(', ')}]${wrongTopic ? ` and one for ${wrongTopic.topic}` : ''}`,
    );
  }
}

function storedAssignment(assignment: NewPartitionAssignment) {
  return {
    replicas: [...assignment.replicas],
    leader: assignment.leader,
    leaderEpoch: assignment.leaderEpoch,
    isr: [...assignment.isr],
    ...(assignment.isrChangedAtMs === undefined ? {} : { isrChangedAtMs: assignment.isrChangedAtMs }),
    ...(assignment.leaderChangedAtMs === undefined
      ? {}
      : { leaderChangedAtMs: assignment.leaderChangedAtMs }),
    version: 0,
  };
}

function assignmentChanges(stored: StoredTopic, fromPartition: number): PlacementChange[] {
  const changes: PlacementChange[] = [];
  const assignments = stored.assignments ?? [];
  for (let partition = fromPartition; partition < assignments.length; partition++) {
    changes.push({
      kind: 'assignment',
      topic: stored.name,
      partition,
      assignment: assignmentOf(stored.name, partition, assignments[partition]!),
    });
  }
  return changes;
}
