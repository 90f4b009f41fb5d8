import { randomUUID } from 'node:crypto';
import { type AclBinding, ErrorCode, WeirError } from '@weir/protocol';
import type { AssignmentChangeCause } from '../assignment-change';
import {
  assignmentEvents,
  type ClusterEvent,
  type ClusterEventRetention,
  clusterEventId,
  eventMatches,
  type NewClusterEvent,
  type StoredEventQuery,
  withChangeTimes,
} from '../cluster-events';
import type {
  BrokerConfigOverrides,
  BrokerRegistration,
  BrokerSessionEvent,
  ClientQuotaAlteration,
  ClientQuotaRecord,
  MetadataStore,
  NewPartitionAssignment,
  PartitionAssignment,
  PlacementImage,
  PlacementListener,
  ProducerIdBlock,
  ScramCredentialRecord,
  TopicRecord,
  UserRecord,
  WriteFence,
} from '../metadata-store';
import { userWithoutMechanisms } from '../user-records';
import { BrokerSession } from './broker-session';
import { ControllerElection } from './controller-election';
import { type EtcdCompare, EtcdConnection, type EtcdWrite } from './etcd-connection';
import { EtcdImage, type StoredAssignment, type StoredCluster } from './etcd-image';
import {
  aclKey,
  brokerConfigKey,
  ETCD_KEYS,
  EVENTS_END,
  eventKey,
  partitionKey,
  partitionsPrefixOf,
  quotaKey,
  topicKey,
  userKey,
} from './etcd-keys';

export interface EtcdMetadataStoreOptions {
  endpoints: readonly string[];
  /** The cluster's name: its keys are under `/weir/<name>/`. */
  clusterName: string;
  /** The cluster id a first broker writes; a later one must match the stored id when set. */
  clusterId?: string | undefined;
  brokerId: number;
  requestTimeoutMs: number;
  sessionTtlSeconds: number;
  controllerTtlSeconds: number;
  /** The wall clock events are stamped with (epoch ms); `Date.now` unless a test sets it. */
  now?: () => number;
  logger: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
    error(fields: object, message: string): void;
  };
}

/** etcd's default limit on the operations of one transaction (`--max-txn-ops`). */
const MAX_TXN_OPS = 128;

/** Whether the store can reach etcd, for `/ready`. */
export interface EtcdStoreHealth {
  ok: boolean;
  detail: string;
}

/**
 * The metadata store of a cluster (docs/architecture.md §6.4): every broker's metadata lives in
 * etcd under `/weir/<cluster>/`, and each broker serves from an in-memory image built from one list
 * and fed by a watch from that list's revision, so no request waits on etcd. A write is a
 * transaction; it resolves once the watch has brought the image here to the write's revision, so a
 * writer that awaited its change finds it in the image, as with the local store.
 */
export class EtcdMetadataStore implements MetadataStore {
  readonly #connection: EtcdConnection;
  readonly #image: EtcdImage;
  readonly #listeners = new Set<PlacementListener>();
  readonly #waiters: { revision: number; resolve: () => void }[] = [];
  readonly #session: BrokerSession;
  readonly #election: ControllerElection;
  #stopWatch: (() => Promise<void>) | undefined;
  #health: EtcdStoreHealth;
  #closed = false;
  /** Orders the events this broker writes within one millisecond. */
  #eventCounter = 0;
  /** Makes the ids of two brokers' events in the same millisecond differ. */
  readonly #eventSuffix = randomUUID().slice(0, 8);

  constructor(private readonly options: EtcdMetadataStoreOptions) {
    this.#connection = new EtcdConnection({
      endpoints: options.endpoints,
      prefix: `/weir/${options.clusterName}/`,
      requestTimeoutMs: options.requestTimeoutMs,
    });
    this.#health = { ok: false, detail: `connecting to etcd at ${options.endpoints.join(', ')}` };
    this.#image = new EtcdImage((key, error) =>
      options.logger.error({ key, err: error }, 'ignoring a metadata key in etcd that cannot be read'),
    );
    this.#session = new BrokerSession({
      connection: this.#connection,
      ttlSeconds: options.sessionTtlSeconds,
      applied: (revision) => this.#applied(revision),
      logger: options.logger,
    });
    // A lost lease is how a paused or unreachable etcd shows when its connection stays open.
    this.#session.onEvent((event) => {
      this.#health =
        event.kind === 'lost'
          ? {
              ok: false,
              detail: `broker session lost: etcd unreachable at ${this.#connection.endpoints.join(', ')}; registering again`,
            }
          : { ok: true, detail: `etcd at ${this.#connection.endpoints.join(', ')}` };
    });
    this.#election = new ControllerElection({
      connection: this.#connection,
      brokerId: options.brokerId,
      ttlSeconds: options.controllerTtlSeconds,
      current: () => ({
        revision: this.#image.revision,
        controllerId: this.#image.controllerId,
        controllerRevision: this.#image.controllerRevision,
      }),
      logger: options.logger,
    });
  }

  /** Whether etcd answers, and where the store is trying. */
  health(): EtcdStoreHealth {
    return this.#health;
  }

  /**
   * Lists the cluster and follows it. While etcd is unreachable the broker retries with backoff
   * and says where it is trying; a cluster id that differs from the stored one refuses the start.
   */
  async load(): Promise<void> {
    const { logger } = this.options;
    let delayMs = 200;
    for (;;) {
      try {
        await this.#ensureCluster();
        break;
      } catch (error) {
        if (error instanceof WeirError && error.code === ErrorCode.INCONSISTENT_CLUSTER_ID) throw error;
        this.#health = { ok: false, detail: `etcd unreachable at ${this.#connection.endpoints.join(', ')}` };
        logger.warn(
          { endpoints: this.#connection.endpoints, retryInMs: delayMs, err: error },
          'etcd is not reachable yet; retrying',
        );
        if (this.#closed) throw error;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        delayMs = Math.min(delayMs * 2, 5000);
      }
    }
    await this.#listAndWatch();
    this.#health = { ok: true, detail: `etcd at ${this.#connection.endpoints.join(', ')}` };
  }

  clusterId(): string {
    return this.#image.cluster?.clusterId ?? '';
  }

  snapshot(): PlacementImage {
    return this.#image.snapshot();
  }

  watch(listener: PlacementListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async registerBroker(broker: BrokerRegistration): Promise<BrokerRegistration> {
    const registration = await this.#session.register(broker);
    await this.appendClusterEvents([sessionEvent('broker-session-started', registration, this.#now())]);
    void this.#election.stand();
    return registration;
  }

  onSession(listener: (event: BrokerSessionEvent) => void): () => void {
    return this.#session.onEvent(listener);
  }

  holdsControllerTitle(): boolean {
    return this.#election.fence() !== undefined;
  }

  async unregisterBroker(brokerId: number, sessionId: string): Promise<void> {
    await this.#election.resign();
    // The end is written before the registration goes, so a controller that sees it go finds the
    // end already recorded and does not take the stop for an expired session.
    const registered = this.#image.brokers.get(brokerId);
    if (registered?.sessionId === sessionId) {
      await this.appendClusterEvents([
        { ...sessionEvent('broker-session-ended', registered, this.#now()), detail: 'stopped' },
      ]);
    }
    await this.#session.unregister(sessionId);
  }

  async createTopic(topic: TopicRecord, assignments: readonly NewPartitionAssignment[]): Promise<void> {
    // One transaction holds the topic and as many partitions as etcd allows in one; the rest
    // follow as partition additions, so a reader may briefly see the topic with fewer partitions.
    const first = assignments.slice(0, MAX_TXN_OPS - 1);
    const record: TopicRecord = { ...topic, partitionCount: first.length };
    const result = await this.#connection.txn(
      [{ key: topicKey(topic.name), target: 'Create', operator: '==', value: 0 }],
      [{ put: topicKey(topic.name), value: JSON.stringify(record) }, ...first.map(assignmentWrite)],
    );
    if (!result.succeeded) {
      throw new WeirError(ErrorCode.TOPIC_ALREADY_EXISTS, { detail: `topic "${topic.name}" already exists` });
    }
    await this.#applied(result.revision);
    if (assignments.length > first.length)
      await this.addPartitions(topic.name, assignments.slice(first.length));
  }

  async deleteTopic(name: string): Promise<void> {
    const result = await this.#connection.txn(
      [{ key: topicKey(name), target: 'Create', operator: '>', value: 0 }],
      [{ delete: topicKey(name) }, { deletePrefix: partitionsPrefixOf(name) }],
    );
    if (result.succeeded) await this.#applied(result.revision);
  }

  async setTopicConfigs(name: string, configs: Record<string, string>): Promise<void> {
    await this.#updateTopic(name, (topic) => [{ ...topic, configs: { ...configs } }, []]);
  }

  async addPartitions(name: string, assignments: readonly NewPartitionAssignment[]): Promise<void> {
    for (let start = 0; start < assignments.length; start += MAX_TXN_OPS - 1) {
      const chunk = assignments.slice(start, start + MAX_TXN_OPS - 1);
      await this.#updateTopic(name, (topic) => {
        if (chunk[0]?.partition !== topic.partitionCount) {
          throw new Error(`partitions added to ${name} must start at ${topic.partitionCount}`);
        }
        return [
          { ...topic, partitionCount: topic.partitionCount + chunk.length },
          chunk.map(assignmentWrite),
        ];
      });
    }
  }

  async compareAndSetAssignment(
    next: PartitionAssignment,
    fence?: WriteFence,
    cause?: AssignmentChangeCause,
  ): Promise<PartitionAssignment> {
    const key = partitionKey(next.topic, next.partition);
    const atMs = this.#now();
    // The events are derived from the version the writer read (the image's, when it is that
    // version) and written in the same transaction, so an event exists exactly when its change did.
    const read = this.#image.assignments.get(key);
    const previous = read !== undefined && read.version === next.version ? read : undefined;
    const stored = previous === undefined ? next : withChangeTimes(previous, next, atMs);
    const events = previous === undefined ? [] : assignmentEvents(previous, next, cause, atMs);
    const compares: EtcdCompare[] = [{ key, target: 'Mod', operator: '==', value: next.version }];
    if (fence === 'controller') compares.push(this.#controllerFence());
    const result = await this.#connection.txn(
      compares,
      [assignmentWrite(stored), ...events.map((event) => this.#eventWrite(event))],
      [key, ETCD_KEYS.controller],
    );
    if (!result.succeeded) {
      const current = result.current.find((kv) => kv.key === key);
      if (current === undefined) {
        throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
          detail: `${next.topic}-${next.partition} does not exist`,
        });
      }
      if (current.modRevision !== next.version) {
        throw new WeirError(ErrorCode.INVALID_UPDATE_VERSION, {
          detail: `${next.topic}-${next.partition} is at version ${current.modRevision}, not ${next.version}`,
        });
      }
      throw new WeirError(ErrorCode.NOT_CONTROLLER, {
        detail: `broker ${this.options.brokerId} lost the controller election before writing`,
      });
    }
    await this.#applied(result.revision);
    const written = this.#image.assignments.get(key);
    if (written === undefined) throw new Error(`${key} vanished right after it was written`);
    return written;
  }

  async listClusterEvents(query: StoredEventQuery): Promise<ClusterEvent[]> {
    const start =
      query.sinceMs === undefined ? ETCD_KEYS.eventsPrefix : eventKey(clusterEventId(query.sinceMs, 0, ''));
    let end = query.untilMs === undefined ? EVENTS_END : eventKey(clusterEventId(query.untilMs + 1, 0, ''));
    const found: ClusterEvent[] = [];
    // Filters other than time are applied here, so the range is read newest first in pages until
    // the limit is filled or the range is exhausted.
    const pageSize = Math.min(Math.max(query.limit * 4, 256), 4096);
    while (found.length < query.limit) {
      const page = await this.#connection.rangeBetween(start, end, { limit: pageSize, descending: true });
      for (const kv of page) {
        const event = parseEvent(kv.key, kv.value);
        if (event !== undefined && eventMatches(event, query)) found.push(event);
        if (found.length >= query.limit) break;
      }
      const last = page.at(-1);
      if (page.length < pageSize || last === undefined) break;
      end = last.key;
    }
    return found;
  }

  /**
   * Removes events older than the retention and the oldest beyond the count (the controller calls
   * this periodically); returns how many it removed.
   */
  async pruneClusterEvents(retention: ClusterEventRetention): Promise<number> {
    let removed = 0;
    const cutoff = eventKey(clusterEventId(this.#now() - retention.retentionMs, 0, ''));
    const expired = await this.#connection.countBetween(ETCD_KEYS.eventsPrefix, cutoff);
    if (expired > 0) {
      await this.#connection.deleteBetween(ETCD_KEYS.eventsPrefix, cutoff);
      removed += expired;
    }
    const kept = await this.#connection.countBetween(ETCD_KEYS.eventsPrefix, EVENTS_END);
    const excess = kept - retention.maxCount;
    if (excess > 0) {
      const oldest = await this.#connection.rangeBetween(ETCD_KEYS.eventsPrefix, EVENTS_END, {
        limit: excess,
        descending: false,
      });
      const last = oldest.at(-1);
      if (last !== undefined) {
        await this.#connection.deleteBetween(ETCD_KEYS.eventsPrefix, `${last.key}\0`);
        removed += oldest.length;
      }
    }
    return removed;
  }

  /** Writes events that no assignment change carries (broker sessions), on their own. */
  /**
   * Writes events no assignment change carries. With the 'controller' fence (the controller's
   * session bookkeeping) they are written only while this broker holds the election, so a deposed
   * controller that was paused cannot record an end its successor records too.
   */
  async appendClusterEvents(events: readonly NewClusterEvent[], fence?: WriteFence): Promise<void> {
    if (events.length === 0) return;
    const compares: EtcdCompare[] = [];
    if (fence === 'controller') compares.push(this.#controllerFence());
    const result = await this.#connection.txn(
      compares,
      events.map((event) => this.#eventWrite(event)),
    );
    if (!result.succeeded) {
      throw new WeirError(ErrorCode.NOT_CONTROLLER, {
        detail: `broker ${this.options.brokerId} lost the controller election before writing`,
      });
    }
  }

  #eventWrite(event: NewClusterEvent): EtcdWrite {
    this.#eventCounter = (this.#eventCounter + 1) % 1_000_000;
    const id = clusterEventId(event.atMs, this.#eventCounter, this.#eventSuffix);
    return { put: eventKey(id), value: JSON.stringify({ ...event, id }) };
  }

  /** The compare that holds a write to this broker's controller election; NOT_CONTROLLER without one. */
  #controllerFence(): EtcdCompare {
    const held = this.#election.fence();
    if (held === undefined) {
      throw new WeirError(ErrorCode.NOT_CONTROLLER, {
        detail: `broker ${this.options.brokerId} is not the controller`,
      });
    }
    return held;
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }

  async allocateProducerIdBlock(count: number): Promise<ProducerIdBlock> {
    for (;;) {
      const { next, modRevision } = this.#image.producerIds;
      const result = await this.#connection.txn(
        [{ key: ETCD_KEYS.producerIds, target: 'Mod', operator: '==', value: modRevision }],
        [{ put: ETCD_KEYS.producerIds, value: JSON.stringify({ next: next + count }) }],
      );
      if (result.succeeded) {
        await this.#applied(result.revision);
        return { firstProducerId: next, count };
      }
      // Another broker took a block first; the watch brings its counter, then this tries again.
      await this.#applied(Math.max(result.revision, this.#image.revision));
    }
  }

  listUsers(): readonly UserRecord[] {
    return [...this.#image.users.values()];
  }

  getUser(name: string): UserRecord | undefined {
    return this.#image.users.get(name);
  }

  async putUserCredential(name: string, mechanism: string, credential: ScramCredentialRecord): Promise<void> {
    await this.#updateKey(userKey(name), (current: UserRecord | undefined) => ({
      name,
      credentials: { ...(current?.credentials ?? {}), [mechanism]: { ...credential } },
    }));
  }

  async deleteUser(name: string, mechanisms?: readonly string[]): Promise<void> {
    await this.#updateKey(userKey(name), (current: UserRecord | undefined) =>
      userWithoutMechanisms(name, current, mechanisms),
    );
  }

  listAcls(): readonly AclBinding[] {
    return this.#image.acls;
  }

  async addAcls(bindings: readonly AclBinding[]): Promise<void> {
    for (let start = 0; start < bindings.length; start += MAX_TXN_OPS) {
      const chunk = bindings.slice(start, start + MAX_TXN_OPS);
      const result = await this.#connection.txn(
        [],
        chunk.map((binding) => ({ put: aclKey(binding), value: JSON.stringify(binding) })),
      );
      await this.#applied(result.revision);
    }
  }

  async removeAcls(selects: (binding: AclBinding) => boolean): Promise<AclBinding[]> {
    const removed = this.#image.acls.filter(selects);
    for (let start = 0; start < removed.length; start += MAX_TXN_OPS) {
      const chunk = removed.slice(start, start + MAX_TXN_OPS);
      const result = await this.#connection.txn(
        [],
        chunk.map((binding) => ({ delete: aclKey(binding) })),
      );
      await this.#applied(result.revision);
    }
    return removed;
  }

  listClientQuotas(): readonly ClientQuotaRecord[] {
    return this.#image.quotas;
  }

  async alterClientQuotas(alterations: readonly ClientQuotaAlteration[]): Promise<void> {
    const current = new Map(this.#image.quotas.map((record) => [quotaKey(record.entity), record]));
    const writes: EtcdWrite[] = [];
    for (const { entity, set, remove } of alterations) {
      const key = quotaKey(entity);
      const values: Record<string, number> = { ...(current.get(key)?.values ?? {}), ...set };
      for (const name of remove) delete values[name];
      if (Object.keys(values).length === 0) writes.push({ delete: key });
      else writes.push({ put: key, value: JSON.stringify({ entity, values }) });
    }
    if (writes.length === 0) return;
    const result = await this.#connection.txn([], writes);
    await this.#applied(result.revision);
  }

  listBrokerConfigs(): readonly BrokerConfigOverrides[] {
    return this.#image.brokerConfigs;
  }

  async setBrokerConfigs(scope: string, configs: Record<string, string>): Promise<void> {
    const key = brokerConfigKey(scope);
    const write: EtcdWrite =
      Object.keys(configs).length === 0
        ? { delete: key }
        : { put: key, value: JSON.stringify({ scope, configs } satisfies BrokerConfigOverrides) };
    const result = await this.#connection.txn([], [write]);
    await this.#applied(result.revision);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#stopWatch?.();
    this.#connection.close();
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  async #ensureCluster(): Promise<void> {
    const wanted: StoredCluster = {
      name: this.options.clusterName,
      clusterId: this.options.clusterId ?? randomUUID(),
    };
    const result = await this.#connection.txn(
      [{ key: ETCD_KEYS.cluster, target: 'Create', operator: '==', value: 0 }],
      [{ put: ETCD_KEYS.cluster, value: JSON.stringify(wanted) }],
      [ETCD_KEYS.cluster],
    );
    if (result.succeeded) return;
    const stored = JSON.parse(result.current[0]?.value ?? '{}') as Partial<StoredCluster>;
    const idDiffers = this.options.clusterId !== undefined && stored.clusterId !== this.options.clusterId;
    if (stored.name !== this.options.clusterName || idDiffers) {
      throw new WeirError(ErrorCode.INCONSISTENT_CLUSTER_ID, {
        detail:
          `etcd at ${this.#connection.endpoints.join(', ')} holds cluster "${stored.name}" (id ${stored.clusterId}) ` +
          `under /weir/${this.options.clusterName}/, but this broker is configured for cluster "${this.options.clusterName}"` +
          (this.options.clusterId === undefined ? '' : ` (id ${this.options.clusterId})`),
      });
    }
  }

  async #listAndWatch(): Promise<void> {
    const listed = await this.#connection.range('');
    const changes = this.#image.replaceAll(listed.kvs, Math.max(listed.revision, this.#image.revision + 1));
    if (this.#listeners.size > 0 && changes.length > 0) this.#announce(changes);
    this.#wakeWaiters();
    this.#election.onImageChanged();
    this.#stopWatch = await this.#connection.watch('', listed.revision, {
      onEvents: (events, revision) => {
        if (revision <= this.#image.revision) return;
        const placement = this.#image.applyEvents(events, revision);
        if (placement.length > 0) this.#announce(placement);
        this.#wakeWaiters();
        this.#election.onImageChanged();
      },
      onCompacted: () => {
        this.options.logger.warn(
          { revision: this.#image.revision },
          'etcd compacted past the watch; listing again',
        );
        void this.#resync();
      },
      onDisconnected: () => {
        this.#health = { ok: false, detail: `etcd unreachable at ${this.#connection.endpoints.join(', ')}` };
      },
      onConnected: () => {
        this.#health = { ok: true, detail: `etcd at ${this.#connection.endpoints.join(', ')}` };
      },
    });
  }

  async #resync(): Promise<void> {
    await this.#stopWatch?.();
    while (!this.#closed) {
      try {
        await this.#listAndWatch();
        return;
      } catch (error) {
        this.options.logger.warn({ err: error }, 'listing etcd again failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  #announce(changes: Parameters<PlacementListener>[0]): void {
    for (const listener of this.#listeners) listener(changes, this.#image.revision);
  }

  #applied(revision: number): Promise<void> {
    if (this.#image.revision >= revision || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ revision, resolve }));
  }

  #wakeWaiters(): void {
    for (let index = this.#waiters.length - 1; index >= 0; index--) {
      const waiter = this.#waiters[index]!;
      if (waiter.revision <= this.#image.revision) {
        this.#waiters.splice(index, 1);
        waiter.resolve();
      }
    }
  }

  /** Rewrites a topic key with a compare on its mod revision, retrying when another write came first. */
  async #updateTopic(
    name: string,
    change: (topic: TopicRecord) => [TopicRecord, EtcdWrite[]],
  ): Promise<void> {
    for (;;) {
      const key = topicKey(name);
      const stored = await this.#connection.get(key);
      if (stored === undefined) {
        throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
          detail: `topic "${name}" does not exist`,
        });
      }
      const [next, writes] = change(JSON.parse(stored.value) as TopicRecord);
      const result = await this.#connection.txn(
        [{ key, target: 'Mod', operator: '==', value: stored.modRevision }],
        [{ put: key, value: JSON.stringify(next) }, ...writes],
      );
      if (result.succeeded) {
        await this.#applied(result.revision);
        return;
      }
    }
  }

  /** Read-modify-write of one JSON key with a compare on its mod revision; undefined deletes it. */
  async #updateKey<T>(key: string, change: (current: T | undefined) => T | undefined): Promise<void> {
    for (;;) {
      const stored = await this.#connection.get(key);
      const next = change(stored === undefined ? undefined : (JSON.parse(stored.value) as T));
      const write: EtcdWrite =
        next === undefined ? { delete: key } : { put: key, value: JSON.stringify(next) };
      const result = await this.#connection.txn(
        [{ key, target: 'Mod', operator: '==', value: stored?.modRevision ?? 0 }],
        [write],
      );
      if (result.succeeded) {
        await this.#applied(result.revision);
        return;
      }
    }
  }
}

/** A broker session's start or end, as the timeline records it. */
export function sessionEvent(
  kind: 'broker-session-started' | 'broker-session-ended',
  broker: BrokerRegistration,
  atMs: number,
): NewClusterEvent {
  return { atMs, kind, brokerId: broker.brokerId, sessionId: broker.sessionId };
}

/** An event as stored, or undefined when the value is not one (it is skipped, never fatal). */
function parseEvent(key: string, value: string): ClusterEvent | undefined {
  try {
    const parsed = JSON.parse(value) as ClusterEvent;
    if (typeof parsed.atMs !== 'number' || typeof parsed.kind !== 'string') return undefined;
    return { ...parsed, id: parsed.id ?? key.slice(ETCD_KEYS.eventsPrefix.length) };
  } catch {
    return undefined;
  }
}

function assignmentWrite(assignment: NewPartitionAssignment): EtcdWrite {
  const stored: StoredAssignment = {
    replicas: [...assignment.replicas],
    leader: assignment.leader,
    leaderEpoch: assignment.leaderEpoch,
    isr: [...assignment.isr],
    ...(assignment.elr === undefined || assignment.elr.length === 0 ? {} : { elr: [...assignment.elr] }),
    ...(assignment.memberStorage === undefined ? {} : { memberStorage: memberStorageOf(assignment) }),
    ...(assignment.addingReplicas === undefined || assignment.addingReplicas.length === 0
      ? {}
      : { addingReplicas: [...assignment.addingReplicas] }),
    ...(assignment.removingReplicas === undefined || assignment.removingReplicas.length === 0
      ? {}
      : { removingReplicas: [...assignment.removingReplicas] }),
    ...(assignment.isrChangedAtMs === undefined ? {} : { isrChangedAtMs: assignment.isrChangedAtMs }),
    ...(assignment.leaderChangedAtMs === undefined
      ? {}
      : { leaderChangedAtMs: assignment.leaderChangedAtMs }),
  };
  return { put: partitionKey(assignment.topic, assignment.partition), value: JSON.stringify(stored) };
}

/** The storage ids of the assignment's ISR and ELR members only: those of former members are dropped. */
function memberStorageOf(assignment: NewPartitionAssignment): Record<string, string> {
  const members = new Set([...assignment.isr, ...(assignment.elr ?? [])]);
  const kept: Record<string, string> = {};
  for (const [brokerId, storageId] of Object.entries(assignment.memberStorage ?? {})) {
    if (members.has(Number(brokerId))) kept[brokerId] = storageId;
  }
  return kept;
}
