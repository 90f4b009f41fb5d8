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
 * Where the broker keeps its metadata (ARCHITECTURE §6): topics and their configs, the cluster id,
 * producer id blocks; users and ACLs come later. The local implementation lives in the data
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
}
