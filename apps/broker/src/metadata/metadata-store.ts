import type { AclBinding } from '@weir/protocol';
import type { AssignmentChangeCause } from './assignment-change';
import type { ClusterEvent, StoredEventQuery } from './cluster-events';

/** A topic as the metadata store keeps it. Partition data lives in the logs; this is the catalogue. */
export interface TopicRecord {
  name: string;
  /** A UUID assigned at creation (Kafka's topic id), so a recreated topic is a different topic. */
  topicId: string;
  partitionCount: number;
  /** Topic-level config overrides, with Kafka's names and string values. */
  configs: Record<string, string>;
  /** Internal topics (`__consumer_offsets`, `__transaction_state`) are hidden from plain listings. */
  internal: boolean;
  createdAtMs: number;
}

/** Where one listener of a broker is reached. */
export interface ListenerAddress {
  host: string;
  port: number;
}

/**
 * A live broker. Registrations are ephemeral: a broker registers when its listeners are bound and
 * its registration ends with its process (in cluster mode, with its etcd lease). Each start gets a
 * new `sessionId`, so an ISR entry or a fence can name the session it was made in, and a restarted
 * broker is never mistaken for the one before it (docs/architecture.md §6).
 */
export interface BrokerRegistration {
  brokerId: number;
  rack: string | null;
  /** The client listener, and the internal one unless it is disabled. */
  listeners: { client: ListenerAddress; internal: ListenerAddress | null };
  sessionId: string;
  registeredAtMs: number;
  /** Its data directory's storage id (cluster.json), in cluster mode; a new disk has a new one. */
  storageId?: string;
}

/**
 * Where one partition lives: its replicas (the first is the preferred leader), the current leader
 * (-1 while it has none), the leader epoch (bumped by every leader change), and the in-sync
 * replicas. `version` grows with every change; a compare-and-swap write names the version it read,
 * as Kafka's partition epoch does, so two writers can never both win.
 */
export interface PartitionAssignment {
  topic: string;
  partition: number;
  replicas: readonly number[];
  leader: number;
  leaderEpoch: number;
  isr: readonly number[];
  /**
   * Eligible leader replicas (KIP-966): members that left the ISR while it was below
   * `min.insync.replicas`, when the high watermark could no longer move, so they hold every
   * acknowledged record; the controller may elect one when no ISR member is live. Absent is empty.
   */
  elr?: readonly number[];
  /**
   * The storage id of each ISR and ELR member (by broker id) when it became one (KIP-903's broker
   * epoch, for this design's durability policy): a member whose broker comes back with another
   * storage id lost its log and is no longer in sync, however it left. Absent for partitions of a
   * standalone broker and of older Weir versions: nothing is checked then.
   */
  memberStorage?: Readonly<Record<string, string>>;
  /**
   * While a reassignment moves the partition (KIP-455): the replicas being added and removed.
   * `replicas` then holds the target replicas followed by the ones being removed. Absent is empty.
   */
  addingReplicas?: readonly number[];
  removingReplicas?: readonly number[];
  /** When the store last wrote a change of the ISR (epoch ms), so "under-replicated since" needs no event query. */
  isrChangedAtMs?: number;
  /** When the store last wrote a change of the leader or its epoch (epoch ms). */
  leaderChangedAtMs?: number;
  version: number;
}

/** A partition's placement as a topic creation or a partition increase proposes it. */
export type NewPartitionAssignment = Omit<PartitionAssignment, 'version'>;

/** A range of producer ids handed to this broker, so ids are never reused across restarts. */
export interface ProducerIdBlock {
  firstProducerId: number;
  count: number;
}

/**
 * One SCRAM credential of a user (RFC 5802): what the broker needs to check a proof and sign its
 * answer, never the password. Byte strings are base64.
 */
export interface ScramCredentialRecord {
  salt: string;
  iterations: number;
  storedKey: string;
  serverKey: string;
}

/** A SASL user: one credential per SCRAM mechanism it may use (PLAIN checks against any of them). */
export interface UserRecord {
  name: string;
  /** By mechanism name (`SCRAM-SHA-256`, `SCRAM-SHA-512`). */
  credentials: Record<string, ScramCredentialRecord>;
}

/**
 * A client quota entity (Kafka's `/config/users/<user>/clients/<client-id>` and their defaults):
 * a type that is absent is not part of the entity, and a null name is that type's default entity.
 */
export interface ClientQuotaEntity {
  user?: string | null;
  clientId?: string | null;
}

/**
 * The dynamic configs of one scope: a broker's node id as a string, or "" for the cluster-wide
 * default every broker falls back to (Kafka's `<default>` entity).
 */
export interface BrokerConfigOverrides {
  scope: string;
  configs: Record<string, string>;
}

/** One entity's quotas, by Kafka's key (`producer_byte_rate`, `consumer_byte_rate`, `request_percentage`). */
export interface ClientQuotaRecord {
  entity: ClientQuotaEntity;
  values: Readonly<Record<string, number>>;
}

/** One entity's change: keys to set and keys to remove (an entity left without keys is removed). */
export interface ClientQuotaAlteration {
  entity: ClientQuotaEntity;
  set: Readonly<Record<string, number>>;
  remove: readonly string[];
}

/**
 * The placement part of the metadata, whole: what a new reader starts from before it follows
 * {@link MetadataStore.watch}. `revision` is the store's revision the image is as of.
 */
export interface PlacementImage {
  revision: number;
  clusterId: string;
  /** The broker that decides placement and elections; -1 while there is none. */
  controllerId: number;
  brokers: readonly BrokerRegistration[];
  topics: readonly TopicRecord[];
  assignments: readonly PartitionAssignment[];
}

/**
 * One change of the placement metadata. A value of undefined means the entry is gone (a deleted
 * topic, a partition of a deleted topic, a broker whose session ended).
 */
export type PlacementChange =
  | { kind: 'topic'; name: string; topic: TopicRecord | undefined }
  | { kind: 'assignment'; topic: string; partition: number; assignment: PartitionAssignment | undefined }
  | { kind: 'broker'; brokerId: number; broker: BrokerRegistration | undefined }
  | { kind: 'controller'; controllerId: number };

/**
 * Told about every committed change, in commit order, each batch with the revision it brings the
 * store to. Called synchronously, before the promise of the change that caused it resolves, so a
 * writer that awaited its change finds it in every image fed by the watch.
 */
export type PlacementListener = (changes: readonly PlacementChange[], revision: number) => void;

/**
 * Where the broker keeps its metadata (docs/architecture.md §6): brokers, topics, partition
 * assignments, topic configs, the cluster id, producer id blocks, SASL users, ACLs, client quotas. The local
 * implementation lives in the data directory; cluster mode puts it in etcd behind the same
 * interface. Every mutation is durable when its promise resolves.
 *
 * Placement (brokers, topics, assignments, the controller) is read through the image a
 * `ClusterView` builds from {@link snapshot} and {@link watch}, never from the store directly,
 * so both implementations serve reads the same way.
 */
export interface MetadataStore {
  load(): Promise<void>;
  clusterId(): string;
  /** The placement metadata as of now. */
  snapshot(): PlacementImage;
  /** Follows every placement change from now on; returns the unsubscribe function. */
  watch(listener: PlacementListener): () => void;
  /**
   * Registers (or re-registers) a broker and returns the registration as stored. In cluster mode
   * the registration lives as long as the broker's lease, whose id becomes its `sessionId`; the
   * local store keeps it in memory, since a broker that is not running is not live whatever a file
   * says.
   */
  registerBroker(broker: BrokerRegistration): Promise<BrokerRegistration>;
  /**
   * Follows this broker's session: `lost` when its registration ended without a stop (its lease
   * expired), `registered` when it is registered again under a new session. Returns the unsubscribe
   * function. The local store's session never ends.
   */
  onSession(listener: (event: BrokerSessionEvent) => void): () => void;
  /**
   * Whether this broker holds the controller title now, by its own election rather than by the
   * image (a broker cut off from etcd still sees itself named until its lease has gone). The local
   * store's broker is always its controller.
   */
  holdsControllerTitle(): boolean;
  /** Ends a registration, if `sessionId` is still the registered one (a newer start keeps its own). */
  unregisterBroker(brokerId: number, sessionId: string): Promise<void>;
  /** Creates a topic with one assignment per partition (TOPIC_ALREADY_EXISTS if the name is taken). */
  createTopic(topic: TopicRecord, assignments: readonly NewPartitionAssignment[]): Promise<void>;
  /** Deletes a topic and the assignments of its partitions. */
  deleteTopic(name: string): Promise<void>;
  /** Replaces a topic's config overrides. */
  setTopicConfigs(name: string, configs: Record<string, string>): Promise<void>;
  /** Adds partitions at the end (their numbers continue the topic's) with their assignments. */
  addPartitions(name: string, assignments: readonly NewPartitionAssignment[]): Promise<void>;
  /**
   * Replaces one assignment if its stored version is still `next.version` (the version the writer
   * read); the stored one gets the next version. Fails with INVALID_UPDATE_VERSION when another
   * write came first, and UNKNOWN_TOPIC_OR_PARTITION when the partition does not exist.
   */
  compareAndSetAssignment(
    next: PartitionAssignment,
    fence?: WriteFence,
    cause?: AssignmentChangeCause,
  ): Promise<PartitionAssignment>;
  /**
   * The replication timeline (docs/architecture.md §6), newest first: the events the store wrote
   * with each assignment change and broker session. Read from etcd (or the local events file), never
   * from the in-memory image, so the image stays the size of the placement.
   */
  listClusterEvents(query: StoredEventQuery): Promise<ClusterEvent[]>;
  allocateProducerIdBlock(count: number): Promise<ProducerIdBlock>;
  listUsers(): readonly UserRecord[];
  getUser(name: string): UserRecord | undefined;
  /** Adds or replaces one mechanism's credential, creating the user if needed. */
  putUserCredential(name: string, mechanism: string, credential: ScramCredentialRecord): Promise<void>;
  /**
   * Removes the credentials of the given mechanisms (all when undefined); a user left without any
   * is removed. Fails with RESOURCE_NOT_FOUND when the user, or one of the mechanisms, is unknown.
   */
  deleteUser(name: string, mechanisms?: readonly string[]): Promise<void>;
  /**
   * The ACLs. The array is replaced, never changed in place, whenever any metadata changes, so a
   * reader can tell by identity whether what it derived from it is still current.
   */
  listAcls(): readonly AclBinding[];
  /** Adds the ACLs not stored yet (adding an existing one changes nothing, as in Kafka). */
  addAcls(bindings: readonly AclBinding[]): Promise<void>;
  /** Removes the ACLs `selects` picks, judged against the state the removal applies to. */
  removeAcls(selects: (binding: AclBinding) => boolean): Promise<AclBinding[]>;
  /**
   * The client quotas, stored beside the configs. Like the ACLs, the array is replaced, never
   * changed in place, whenever any metadata changes, so a reader can tell by identity whether
   * what it derived from it is still current.
   */
  listClientQuotas(): readonly ClientQuotaRecord[];
  /** Applies the alterations together, in one durable change; the caller has validated them. */
  alterClientQuotas(alterations: readonly ClientQuotaAlteration[]): Promise<void>;
  /**
   * The dynamic broker configs (Kafka's `/config/brokers/<id>` and `<default>`): the few broker
   * settings that change at runtime, such as the replication throttle. Replaced, never changed in
   * place, like the quotas.
   */
  listBrokerConfigs(): readonly BrokerConfigOverrides[];
  /** Replaces one scope's dynamic configs (an empty set removes the scope); the caller has validated them. */
  setBrokerConfigs(scope: string, configs: Record<string, string>): Promise<void>;
  /** Ends the store's connections and sessions (after `unregisterBroker`). */
  close(): Promise<void>;
}

/**
 * Who a write must come from to count: `controller` writes succeed only while this broker holds the
 * controller election (a paused old controller cannot write, docs/architecture.md §6.4); the local
 * store is always its own controller.
 */
export type WriteFence = 'controller';

/** A change of this broker's own session (see {@link MetadataStore.onSession}). */
export type BrokerSessionEvent =
  | { kind: 'lost'; sessionId: string }
  | { kind: 'registered'; registration: BrokerRegistration };
