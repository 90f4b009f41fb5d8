import type { AclBinding } from '@weir/protocol';
import type {
  BrokerConfigOverrides,
  BrokerRegistration,
  ClientQuotaRecord,
  PartitionAssignment,
  PlacementChange,
  PlacementImage,
  TopicRecord,
  UserRecord,
} from '../metadata-store';
import type { EtcdEvent, EtcdKeyValue } from './etcd-connection';
import { parseKey, partitionKey } from './etcd-keys';

/** The identity stored at `cluster`. */
export interface StoredCluster {
  name: string;
  clusterId: string;
}

/** An assignment as stored: its version is the key's mod revision, so it is not in the value. */
export type StoredAssignment = Pick<
  PartitionAssignment,
  | 'replicas'
  | 'leader'
  | 'leaderEpoch'
  | 'isr'
  | 'elr'
  | 'memberStorage'
  | 'addingReplicas'
  | 'removingReplicas'
  | 'isrChangedAtMs'
  | 'leaderChangedAtMs'
>;

/**
 * The broker's in-memory copy of the cluster's metadata in etcd, built from one list and kept
 * current by the watch from that list's revision, so requests never wait on etcd. Every apply
 * returns the placement changes it made, in the order the keys changed, for the cluster view.
 */
export class EtcdImage {
  revision = 0;
  cluster: StoredCluster | undefined;
  controllerId = -1;
  /** The controller key's create revision: the controller's epoch, and what fenced writes compare. */
  controllerRevision = 0;
  readonly brokers = new Map<number, BrokerRegistration>();
  /** Each broker key's create revision and lease, to tell a registration from the one before it. */
  readonly brokerKeys = new Map<number, { createRevision: number; lease: string }>();
  readonly topics = new Map<string, TopicRecord>();
  readonly assignments = new Map<string, PartitionAssignment>();
  readonly users = new Map<string, UserRecord>();
  #acls = new Map<string, AclBinding>();
  #aclList: readonly AclBinding[] = [];
  #quotas = new Map<string, ClientQuotaRecord>();
  #quotaList: readonly ClientQuotaRecord[] = [];
  #brokerConfigs = new Map<string, BrokerConfigOverrides>();
  #brokerConfigList: readonly BrokerConfigOverrides[] = [];
  /** The producer id counter and its mod revision (0: never written). */
  producerIds = { next: 0, modRevision: 0 };

  constructor(private readonly onBadValue: (key: string, error: unknown) => void) {}

  get acls(): readonly AclBinding[] {
    return this.#aclList;
  }

  get quotas(): readonly ClientQuotaRecord[] {
    return this.#quotaList;
  }

  get brokerConfigs(): readonly BrokerConfigOverrides[] {
    return this.#brokerConfigList;
  }

  snapshot(): PlacementImage {
    return {
      revision: this.revision,
      clusterId: this.cluster?.clusterId ?? '',
      controllerId: this.controllerId,
      brokers: [...this.brokers.values()],
      topics: [...this.topics.values()],
      assignments: [...this.assignments.values()],
    };
  }

  /** Applies the events of one revision. */
  applyEvents(events: readonly EtcdEvent[], revision: number): PlacementChange[] {
    const changes: PlacementChange[] = [];
    for (const event of events) this.#applyKey(event.kv, event.type === 'delete', changes);
    this.#finish(revision);
    return changes;
  }

  /**
   * Replaces the whole image with a fresh list (at the start, and after the watch fell behind a
   * compaction), returning what differs from before as changes, so followers of the watch see every
   * change they missed and nothing twice.
   */
  replaceAll(kvs: readonly EtcdKeyValue[], revision: number): PlacementChange[] {
    const before = this.snapshot();
    const fresh = new EtcdImage(this.onBadValue);
    for (const kv of kvs) fresh.#applyKey(kv, false, []);
    this.cluster = fresh.cluster;
    this.controllerId = fresh.controllerId;
    this.controllerRevision = fresh.controllerRevision;
    replaceMap(this.brokers, fresh.brokers);
    replaceMap(this.brokerKeys, fresh.brokerKeys);
    replaceMap(this.topics, fresh.topics);
    replaceMap(this.assignments, fresh.assignments);
    replaceMap(this.users, fresh.users);
    this.#acls = fresh.#acls;
    this.#quotas = fresh.#quotas;
    this.#brokerConfigs = fresh.#brokerConfigs;
    this.producerIds = fresh.producerIds;
    this.#finish(revision);
    return placementDiff(before, this.snapshot());
  }

  #finish(revision: number): void {
    this.revision = revision;
    // Replaced on every change, so a reader can tell by identity that what it derived is stale.
    this.#aclList = [...this.#acls.values()];
    this.#quotaList = [...this.#quotas.values()];
    this.#brokerConfigList = [...this.#brokerConfigs.values()];
  }

  #applyKey(kv: EtcdKeyValue, deleted: boolean, changes: PlacementChange[]): void {
    const parsed = parseKey(kv.key);
    let value: unknown;
    if (!deleted) {
      try {
        value = JSON.parse(kv.value);
      } catch (error) {
        this.onBadValue(kv.key, error);
        return;
      }
    }
    switch (parsed.kind) {
      case 'cluster':
        if (!deleted) this.cluster = value as StoredCluster;
        return;
      case 'controller': {
        const brokerId = deleted ? -1 : (value as { brokerId: number }).brokerId;
        this.controllerId = brokerId;
        this.controllerRevision = deleted ? 0 : kv.createRevision;
        changes.push({ kind: 'controller', controllerId: brokerId });
        return;
      }
      case 'producer-ids':
        if (!deleted)
          this.producerIds = { next: (value as { next: number }).next, modRevision: kv.modRevision };
        return;
      case 'broker': {
        const broker = deleted ? undefined : (value as BrokerRegistration);
        if (broker === undefined) {
          this.brokers.delete(parsed.brokerId);
          this.brokerKeys.delete(parsed.brokerId);
        } else {
          this.brokers.set(parsed.brokerId, broker);
          this.brokerKeys.set(parsed.brokerId, { createRevision: kv.createRevision, lease: kv.lease });
        }
        changes.push({ kind: 'broker', brokerId: parsed.brokerId, broker });
        return;
      }
      case 'topic': {
        const topic = deleted ? undefined : (value as TopicRecord);
        if (topic === undefined) this.topics.delete(parsed.name);
        else this.topics.set(parsed.name, topic);
        changes.push({ kind: 'topic', name: parsed.name, topic });
        return;
      }
      case 'partition': {
        const key = partitionKey(parsed.topic, parsed.partition);
        const assignment = deleted
          ? undefined
          : assignmentOf(parsed.topic, parsed.partition, value as StoredAssignment, kv.modRevision);
        if (assignment === undefined) this.assignments.delete(key);
        else this.assignments.set(key, assignment);
        changes.push({ kind: 'assignment', topic: parsed.topic, partition: parsed.partition, assignment });
        return;
      }
      case 'user':
        if (deleted) this.users.delete(parsed.name);
        else this.users.set(parsed.name, value as UserRecord);
        return;
      case 'acl':
        if (deleted) this.#acls.delete(parsed.id);
        else this.#acls.set(parsed.id, value as AclBinding);
        return;
      case 'quota':
        if (deleted) this.#quotas.delete(parsed.id);
        else this.#quotas.set(parsed.id, value as ClientQuotaRecord);
        return;
      case 'broker-config':
        if (deleted) this.#brokerConfigs.delete(parsed.scope);
        else this.#brokerConfigs.set(parsed.scope, value as BrokerConfigOverrides);
        return;
      case 'event':
        // Events are read from etcd on request: holding them here would grow every broker's image.
        return;
      case 'unknown':
        this.onBadValue(kv.key, new Error('no key of this name is part of the layout'));
        return;
    }
  }
}

export function assignmentOf(
  topic: string,
  partition: number,
  stored: StoredAssignment,
  version: number,
): PartitionAssignment {
  return {
    topic,
    partition,
    replicas: stored.replicas,
    leader: stored.leader,
    leaderEpoch: stored.leaderEpoch,
    isr: stored.isr,
    ...(stored.elr === undefined || stored.elr.length === 0 ? {} : { elr: stored.elr }),
    ...(stored.memberStorage === undefined ? {} : { memberStorage: stored.memberStorage }),
    ...(stored.addingReplicas === undefined ? {} : { addingReplicas: stored.addingReplicas }),
    ...(stored.removingReplicas === undefined ? {} : { removingReplicas: stored.removingReplicas }),
    ...(stored.isrChangedAtMs === undefined ? {} : { isrChangedAtMs: stored.isrChangedAtMs }),
    ...(stored.leaderChangedAtMs === undefined ? {} : { leaderChangedAtMs: stored.leaderChangedAtMs }),
    version,
  };
}

function replaceMap<K, V>(target: Map<K, V>, source: Map<K, V>): void {
  target.clear();
  for (const [key, value] of source) target.set(key, value);
}

/** The changes that turn one placement into another, entry by entry. */
function placementDiff(before: PlacementImage, after: PlacementImage): PlacementChange[] {
  const changes: PlacementChange[] = [];
  const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);
  const diff = <T>(
    left: readonly T[],
    right: readonly T[],
    idOf: (item: T) => string,
    change: (id: string, item: T | undefined, template: T) => PlacementChange,
  ) => {
    const rightById = new Map(right.map((item) => [idOf(item), item]));
    const leftById = new Map(left.map((item) => [idOf(item), item]));
    for (const [id, item] of leftById) if (!rightById.has(id)) changes.push(change(id, undefined, item));
    for (const [id, item] of rightById)
      if (!same(leftById.get(id), item)) changes.push(change(id, item, item));
  };
  diff(
    before.topics,
    after.topics,
    (topic) => topic.name,
    (name, topic) => ({ kind: 'topic', name, topic }),
  );
  diff(
    before.assignments,
    after.assignments,
    (assignment) => partitionKey(assignment.topic, assignment.partition),
    (_, assignment, template) => ({
      kind: 'assignment',
      topic: template.topic,
      partition: template.partition,
      assignment,
    }),
  );
  diff(
    before.brokers,
    after.brokers,
    (broker) => String(broker.brokerId),
    (_, broker, template) => ({ kind: 'broker', brokerId: template.brokerId, broker }),
  );
  if (before.controllerId !== after.controllerId) {
    changes.push({ kind: 'controller', controllerId: after.controllerId });
  }
  return changes;
}
