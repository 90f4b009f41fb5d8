import type { AclBinding } from '@weir/protocol';

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
 * Where the broker keeps its metadata (docs/architecture.md §6): topics and their configs, the cluster id,
 * producer id blocks, SASL users, ACLs. The local implementation lives in the data
 * directory; cluster mode puts it in etcd behind the same interface. Every mutation is durable
 * when its promise resolves.
 */
export interface MetadataStore {
  load(): Promise<void>;
  clusterId(): string;
  listTopics(): readonly TopicRecord[];
  getTopic(name: string): TopicRecord | undefined;
  createTopic(topic: TopicRecord): Promise<void>;
  deleteTopic(name: string): Promise<void>;
  updateTopic(
    name: string,
    change: { partitionCount?: number; configs?: Record<string, string> },
  ): Promise<void>;
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
}
