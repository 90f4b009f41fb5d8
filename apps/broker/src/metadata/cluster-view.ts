import type {
  BrokerRegistration,
  MetadataStore,
  PartitionAssignment,
  PlacementChange,
  PlacementListener,
  TopicRecord,
} from './metadata-store';

/** The broker's listeners: Kafka clients on `client`, the console and other brokers on `internal`. */
export type ListenerName = 'client' | 'internal';

/** A broker as clients of one listener are told about it (Metadata, FindCoordinator). */
export interface BrokerEndpoint {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

/**
 * The broker's synchronous image of the cluster's placement: live brokers, the controller, topics
 * and the assignment of every partition, built from the store's snapshot and kept current by its
 * watch, change by change in commit order. Everything that answers "where does this live?" reads
 * it (Metadata, FindCoordinator, topic descriptions, partition internals, topic summaries, the
 * replica layer), so no code path assumes a broker id, a broker list or a replication factor of
 * its own (docs/architecture.md §6).
 */
export class ClusterView {
  #revision = 0;
  #clusterId = '';
  #controllerId = -1;
  readonly #brokers = new Map<number, BrokerRegistration>();
  readonly #topics = new Map<string, TopicRecord>();
  readonly #assignments = new Map<string, PartitionAssignment[]>();
  /** The topic list as an array, rebuilt only after topics change (Metadata reads it per request). */
  #topicList: readonly TopicRecord[] | undefined;
  #topicsById: ReadonlyMap<string, TopicRecord> | undefined;
  readonly #listeners = new Set<PlacementListener>();

  constructor(
    /** This broker's id: which assignments name it decides what the replica layer holds. */
    readonly localBrokerId: number,
  ) {}

  /** Loads the store's current placement and follows its changes; returns the unfollow function. */
  follow(store: Pick<MetadataStore, 'snapshot' | 'watch'>): () => void {
    const image = store.snapshot();
    this.#revision = image.revision;
    this.#clusterId = image.clusterId;
    this.#controllerId = image.controllerId;
    this.#brokers.clear();
    this.#topics.clear();
    this.#assignments.clear();
    for (const broker of image.brokers) this.#brokers.set(broker.brokerId, broker);
    for (const topic of image.topics) this.#topics.set(topic.name, topic);
    for (const assignment of image.assignments)
      this.#setAssignment(assignment.topic, assignment.partition, assignment);
    this.#topicList = undefined;
    this.#topicsById = undefined;
    return store.watch((changes, revision) => this.apply(changes, revision));
  }

  /** Applies one committed batch of changes, then tells the listeners. */
  apply(changes: readonly PlacementChange[], revision: number): void {
    if (revision <= this.#revision) {
      // The store delivers each revision once, in order; seeing one again means a second feed.
      throw new Error(`placement revision ${revision} arrived after revision ${this.#revision}`);
    }
    for (const change of changes) {
      switch (change.kind) {
        case 'topic':
          if (change.topic === undefined) this.#topics.delete(change.name);
          else this.#topics.set(change.name, change.topic);
          this.#topicList = undefined;
          this.#topicsById = undefined;
          break;
        case 'assignment':
          this.#setAssignment(change.topic, change.partition, change.assignment);
          break;
        case 'broker':
          if (change.broker === undefined) this.#brokers.delete(change.brokerId);
          else this.#brokers.set(change.brokerId, change.broker);
          break;
        case 'controller':
          this.#controllerId = change.controllerId;
          break;
      }
    }
    this.#revision = revision;
    for (const listener of this.#listeners) listener(changes, revision);
  }

  /** Called after every applied batch, with the changes and the revision they brought. */
  onChange(listener: PlacementListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get revision(): number {
    return this.#revision;
  }

  get clusterId(): string {
    return this.#clusterId;
  }

  /** The controller's broker id; -1 while there is none. */
  get controllerId(): number {
    return this.#controllerId;
  }

  /** Live brokers, by id. */
  brokers(): BrokerRegistration[] {
    return [...this.#brokers.values()].sort((left, right) => left.brokerId - right.brokerId);
  }

  broker(brokerId: number): BrokerRegistration | undefined {
    return this.#brokers.get(brokerId);
  }

  isLive(brokerId: number): boolean {
    return this.#brokers.has(brokerId);
  }

  /**
   * How a live broker is reached on a listener, as a client of that listener is told; undefined
   * for a broker that is not live or has no such listener.
   */
  endpoint(brokerId: number, listener: ListenerName): BrokerEndpoint | undefined {
    const broker = this.#brokers.get(brokerId);
    const address = broker?.listeners[listener];
    if (broker === undefined || address === undefined || address === null) return undefined;
    return { nodeId: brokerId, host: address.host, port: address.port, rack: broker.rack };
  }

  /** Every topic, in creation order. */
  topics(): readonly TopicRecord[] {
    this.#topicList ??= [...this.#topics.values()];
    return this.#topicList;
  }

  topic(name: string): TopicRecord | undefined {
    return this.#topics.get(name);
  }

  /** The topic with this id (Kafka's topic id), or undefined when no topic has it. */
  topicById(topicId: string): TopicRecord | undefined {
    this.#topicsById ??= new Map(this.topics().map((topic) => [topic.topicId, topic]));
    return this.#topicsById.get(topicId);
  }

  /** Whether the partition exists (its topic does, and has that many partitions). */
  hasPartition(topic: string, partition: number): boolean {
    const record = this.#topics.get(topic);
    return (
      record !== undefined &&
      Number.isInteger(partition) &&
      partition >= 0 &&
      partition < record.partitionCount
    );
  }

  assignment(topic: string, partition: number): PartitionAssignment | undefined {
    return this.#assignments.get(topic)?.[partition];
  }

  /** A topic's assignments by partition; empty for an unknown topic. */
  assignmentsOf(topic: string): readonly PartitionAssignment[] {
    return this.#assignments.get(topic) ?? [];
  }

  /** Every assignment that names `brokerId` among its replicas. */
  *assignmentsNaming(brokerId: number): Generator<PartitionAssignment> {
    for (const assignments of this.#assignments.values()) {
      for (const assignment of assignments) {
        if (assignment?.replicas.includes(brokerId)) yield assignment;
      }
    }
  }

  #setAssignment(topic: string, partition: number, assignment: PartitionAssignment | undefined): void {
    let list = this.#assignments.get(topic);
    if (assignment === undefined) {
      // Partitions are only ever removed with their topic, so a removal cuts the list there.
      if (list === undefined) return;
      list.length = Math.min(list.length, partition);
      if (list.length === 0) this.#assignments.delete(topic);
      return;
    }
    if (list === undefined) {
      list = [];
      this.#assignments.set(topic, list);
    }
    list[partition] = assignment;
  }
}
