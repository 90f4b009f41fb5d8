import { randomUUID } from 'node:crypto';
import { ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerConfig } from '../config/broker-config';
import type { LogManager } from '../log/log-manager';
import type { PartitionLog } from '../log/partition-log';
import type { MetadataStore, TopicRecord } from '../metadata/metadata-store';
import { logConfigFor, topicConfigsProblem } from './topic-configs';
import { collidingTopic, INTERNAL_TOPICS, topicNameProblem } from './topic-name';

/** The most partitions one topic may have; beyond it a typo would create a storm of directories. */
export const MAX_PARTITIONS_PER_TOPIC = 10_000;

export interface CreateTopicSpec {
  name: string;
  partitionCount: number;
  configs: Record<string, string | null>;
}

/**
 * Topics as the broker sees them: the catalogue in the metadata store plus one partition log per
 * partition. Every change validates first (names, counts, configs) and reports problems as
 * {@link WeirError}s with Kafka's codes; the catalogue is written before logs are created and after
 * they are deleted, so a crash in between is repaired at the next start by `reconcile`.
 */
export class TopicManager {
  /** Topics being created: checked like existing ones, so concurrent creates cannot collide. */
  readonly #creating = new Set<string>();

  constructor(
    private readonly store: MetadataStore,
    private readonly logs: LogManager,
    private readonly broker: BrokerConfig,
    private readonly clock: { nowMs(): number },
  ) {}

  listTopics(): readonly TopicRecord[] {
    return this.store.listTopics();
  }

  getTopic(name: string): TopicRecord | undefined {
    return this.store.getTopic(name);
  }

  /** The log of a partition, or the Kafka error for why there is none. */
  partitionLog(topic: string, partition: number): PartitionLog {
    const record = this.store.getTopic(topic);
    if (!record || partition < 0 || partition >= record.partitionCount) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, {
        detail: `${topic}-${partition} does not exist`,
      });
    }
    const log = this.logs.getLog(topic, partition);
    if (!log || log.isOffline) {
      throw new WeirError(ErrorCode.KAFKA_STORAGE_ERROR, { detail: `${topic}-${partition} is offline` });
    }
    return log;
  }

  /** Checks a creation request without changing anything (also used for validate_only). */
  validateCreate(spec: CreateTopicSpec): void {
    const nameProblem = topicNameProblem(spec.name);
    if (nameProblem) throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, { detail: nameProblem });
    if (this.store.getTopic(spec.name) || this.#creating.has(spec.name)) {
      throw new WeirError(ErrorCode.TOPIC_ALREADY_EXISTS, { detail: `topic "${spec.name}" already exists` });
    }
    const collision = collidingTopic(spec.name, [
      ...this.store.listTopics().map((topic) => topic.name),
      ...this.#creating,
    ]);
    if (collision) {
      throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, {
        detail: `topic "${spec.name}" collides with "${collision}" ('.' and '_' are the same in metric names)`,
      });
    }
    if (!Number.isInteger(spec.partitionCount) || spec.partitionCount < 1) {
      throw new WeirError(ErrorCode.INVALID_PARTITIONS, {
        detail: `partition count ${spec.partitionCount} must be at least 1`,
      });
    }
    if (spec.partitionCount > MAX_PARTITIONS_PER_TOPIC) {
      throw new WeirError(ErrorCode.INVALID_PARTITIONS, {
        detail: `partition count ${spec.partitionCount} exceeds the maximum of ${MAX_PARTITIONS_PER_TOPIC}`,
      });
    }
    const configProblem = topicConfigsProblem(spec.configs);
    if (configProblem) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: configProblem });
  }

  async createTopic(spec: CreateTopicSpec, options: { internal?: boolean } = {}): Promise<TopicRecord> {
    this.validateCreate(spec);
    // Claimed in the same synchronous step as the check, so concurrent creates of one name (or of
    // colliding names) cannot both pass it while the store writes.
    this.#creating.add(spec.name);
    try {
      return await this.#create(spec, options);
    } finally {
      this.#creating.delete(spec.name);
    }
  }

  async #create(spec: CreateTopicSpec, options: { internal?: boolean }): Promise<TopicRecord> {
    const record: TopicRecord = {
      name: spec.name,
      topicId: randomUUID(),
      partitionCount: spec.partitionCount,
      configs: spec.configs as Record<string, string>,
      internal: options.internal ?? INTERNAL_TOPICS.has(spec.name),
      createdAtMs: this.clock.nowMs(),
    };
    await this.store.createTopic(record);
    for (let partition = 0; partition < record.partitionCount; partition++) {
      await this.logs.createLog(record.name, partition);
    }
    return record;
  }

  async deleteTopic(name: string): Promise<void> {
    const record = this.store.getTopic(name);
    if (!record)
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `topic "${name}" does not exist` });
    if (record.internal) {
      throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, {
        detail: `internal topic "${name}" cannot be deleted`,
      });
    }
    await this.store.deleteTopic(name);
    for (let partition = 0; partition < record.partitionCount; partition++) {
      await this.logs.deleteLog(name, partition);
    }
  }

  /** Checks a partition-count increase (CreatePartitions) without applying it. */
  validateCreatePartitions(name: string, newCount: number): TopicRecord {
    const record = this.store.getTopic(name);
    if (!record)
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `topic "${name}" does not exist` });
    if (record.internal) {
      // Coordinators place keys by hashing over the partition count; changing it would move them.
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: `internal topic "${name}" cannot get more partitions`,
      });
    }
    if (!Number.isInteger(newCount) || newCount <= record.partitionCount) {
      throw new WeirError(ErrorCode.INVALID_PARTITIONS, {
        detail: `topic "${name}" has ${record.partitionCount} partitions; the new count ${newCount} must be larger`,
      });
    }
    if (newCount > MAX_PARTITIONS_PER_TOPIC) {
      throw new WeirError(ErrorCode.INVALID_PARTITIONS, {
        detail: `partition count ${newCount} exceeds the maximum of ${MAX_PARTITIONS_PER_TOPIC}`,
      });
    }
    return record;
  }

  async createPartitions(name: string, newCount: number): Promise<void> {
    const record = this.validateCreatePartitions(name, newCount);
    for (let partition = record.partitionCount; partition < newCount; partition++) {
      await this.logs.createLog(name, partition);
    }
    await this.store.updateTopic(name, { partitionCount: newCount });
  }

  /** Replaces a topic's config overrides and applies them to its live logs. */
  async setConfigs(name: string, configs: Record<string, string>): Promise<void> {
    const record = this.store.getTopic(name);
    if (!record)
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `topic "${name}" does not exist` });
    const problem = topicConfigsProblem(configs);
    if (problem) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: problem });
    await this.store.updateTopic(name, { configs });
    const logConfig = logConfigFor(this.broker, configs);
    for (let partition = 0; partition < record.partitionCount; partition++) {
      this.logs.getLog(name, partition)?.reconfigure({ ...logConfig });
    }
  }

  /**
   * Makes the logs match the catalogue after a start: logs of topics that no longer exist (a
   * crash during a delete) are removed, and missing partitions (a crash during a create) are made.
   */
  async reconcile(): Promise<void> {
    const wanted = new Set<string>();
    for (const topic of this.store.listTopics()) {
      for (let partition = 0; partition < topic.partitionCount; partition++) {
        wanted.add(`${topic.name}\u0000${partition}`);
        const present = this.logs.getLog(topic.name, partition) || this.logs.isOffline(topic.name, partition);
        if (!present) await this.logs.createLog(topic.name, partition);
      }
    }
    for (const log of this.logs.logs()) {
      if (!wanted.has(`${log.topic}\u0000${log.partition}`))
        await this.logs.deleteLog(log.topic, log.partition);
    }
  }
}
