import { randomUUID } from 'node:crypto';
import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore, TopicRecord } from '../metadata/metadata-store';
import { checkReplicationFactor, type PlacementRequest, placePartitions } from './replica-placement';
import {
  internalTopicReplication,
  MIN_INSYNC_REPLICAS_CONFIG,
  minInsyncReplicasProblem,
} from './replication-configs';
import { topicConfigsProblem } from './topic-configs';
import { collidingTopic, INTERNAL_TOPICS, topicNameProblem } from './topic-name';

/** The most partitions one topic may have; beyond it a typo would create a storm of directories. */
export const MAX_PARTITIONS_PER_TOPIC = 10_000;

export interface CreateTopicSpec {
  name: string;
  /** -1: the broker's default (num.partitions), or as many as explicit replicas list. */
  partitionCount: number;
  configs: Record<string, string | null>;
  /**
   * Where the partitions go; absent, or a replication factor of -1, means the broker's default
   * (default.replication.factor).
   */
  placement?: PlacementRequest;
}

/** The broker defaults a creation falls back on. */
export interface TopicDefaults {
  /** num.partitions */
  defaultPartitions: number;
  /** default.replication.factor */
  defaultReplicationFactor: number;
}

/** What the topic manager waits for after a metadata change: the replica layer applying it. */
export interface AppliedMetadata {
  whenApplied(revision?: number): Promise<void>;
}

/**
 * Topics as the cluster sees them: every change is validated first (names, counts, configs,
 * placement), reported as a {@link WeirError} with Kafka's code, written to the metadata store
 * (the catalogue and each partition's assignment), and answered once this broker's replica layer
 * has applied it, so the partitions it holds exist (or are gone) by then. Reads come from the
 * cluster view.
 */
export class TopicManager {
  /** Topics being created: checked like existing ones, so concurrent creates cannot collide. */
  readonly #creating = new Set<string>();

  constructor(
    private readonly store: MetadataStore,
    private readonly view: ClusterView,
    private readonly replicas: AppliedMetadata,
    private readonly defaults: TopicDefaults,
    private readonly clock: { nowMs(): number },
  ) {}

  /** Checks a creation request without changing anything (also used for validate_only). */
  validateCreate(requested: CreateTopicSpec): void {
    const spec = this.#resolve(requested);
    const nameProblem = topicNameProblem(spec.name);
    if (nameProblem) throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, { detail: nameProblem });
    if (this.view.topic(spec.name) || this.#creating.has(spec.name)) {
      throw new WeirError(ErrorCode.TOPIC_ALREADY_EXISTS, { detail: `topic "${spec.name}" already exists` });
    }
    const collision = collidingTopic(spec.name, [
      ...this.view.topics().map((topic) => topic.name),
      ...this.#creating,
    ]);
    if (collision) {
      throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, {
        detail: `topic "${spec.name}" collides with "${collision}" ('.' and '_' are the same in metric names)`,
      });
    }
    checkPartitionCount(spec.partitionCount);
    const configProblem = topicConfigsProblem(spec.configs);
    if (configProblem) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: configProblem });
    this.#place(spec.name, 0, spec.partitionCount, spec.placement);
    const replicationFactor =
      spec.placement.kind === 'factor'
        ? spec.placement.replicationFactor
        : (spec.placement.replicas[0]?.length ?? 0);
    checkMinInsyncReplicas(spec.configs, replicationFactor);
  }

  async createTopic(requested: CreateTopicSpec, options: { internal?: boolean } = {}): Promise<TopicRecord> {
    this.validateCreate(requested);
    const spec = this.#resolve(requested);
    // Claimed in the same synchronous step as the check, so concurrent creates of one name (or of
    // colliding names) cannot both pass it while the store writes.
    this.#creating.add(spec.name);
    try {
      const record: TopicRecord = {
        name: spec.name,
        topicId: randomUUID(),
        partitionCount: spec.partitionCount,
        configs: spec.configs as Record<string, string>,
        internal: options.internal ?? INTERNAL_TOPICS.has(spec.name),
        createdAtMs: this.clock.nowMs(),
      };
      await this.store.createTopic(record, this.#place(spec.name, 0, spec.partitionCount, spec.placement));
      await this.replicas.whenApplied();
      return record;
    } finally {
      this.#creating.delete(spec.name);
    }
  }

  /**
   * Creates an internal topic with the replication its coordinator asks for
   * (offsets.topic.replication.factor and the like), capped by the live brokers, and the min ISR
   * that goes with it ({@link internalTopicReplication}).
   */
  createInternalTopic(
    spec: { name: string; partitionCount: number; configs: Record<string, string> },
    configuredReplicationFactor: number,
  ): Promise<TopicRecord> {
    const { replicationFactor, minInsyncReplicas } = internalTopicReplication(
      configuredReplicationFactor,
      this.view.brokers().length,
    );
    return this.createTopic(
      {
        name: spec.name,
        partitionCount: spec.partitionCount,
        configs: { [MIN_INSYNC_REPLICAS_CONFIG]: String(minInsyncReplicas), ...spec.configs },
        placement: { kind: 'factor', replicationFactor },
      },
      { internal: true },
    );
  }

  async deleteTopic(name: string): Promise<void> {
    const record = this.#existing(name);
    if (record.internal) {
      throw new WeirError(ErrorCode.INVALID_TOPIC_EXCEPTION, {
        detail: `internal topic "${name}" cannot be deleted`,
      });
    }
    await this.store.deleteTopic(name);
    await this.replicas.whenApplied();
  }

  /** Checks a partition-count increase (CreatePartitions) without applying it. */
  validateCreatePartitions(
    name: string,
    newCount: number,
    replicas?: readonly (readonly number[])[],
  ): TopicRecord {
    const record = this.#existing(name);
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
    checkPartitionCount(newCount);
    this.#place(
      name,
      record.partitionCount,
      newCount - record.partitionCount,
      this.#growthPlacement(name, replicas),
    );
    return record;
  }

  async createPartitions(
    name: string,
    newCount: number,
    replicas?: readonly (readonly number[])[],
  ): Promise<void> {
    const record = this.validateCreatePartitions(name, newCount, replicas);
    const first = record.partitionCount;
    const placed = this.#place(name, first, newCount - first, this.#growthPlacement(name, replicas));
    await this.store.addPartitions(name, placed);
    await this.replicas.whenApplied();
  }

  /**
   * Checks a topic's new set of config overrides against the topic (its replication factor), for
   * AlterConfigs and IncrementalAlterConfigs, validate_only included.
   */
  validateConfigs(name: string, configs: Record<string, string>): void {
    this.#existing(name);
    const problem = topicConfigsProblem(configs);
    if (problem) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: problem });
    const replicationFactor = this.view.assignment(name, 0)?.replicas.length;
    if (replicationFactor !== undefined) checkMinInsyncReplicas(configs, replicationFactor);
  }

  /** Replaces a topic's config overrides; its logs have them when this resolves. */
  async setConfigs(name: string, configs: Record<string, string>): Promise<void> {
    this.validateConfigs(name, configs);
    await this.store.setTopicConfigs(name, configs);
    await this.replicas.whenApplied();
  }

  /**
   * Sets cleanup.policy=compact on an internal topic created before Weir compacted them (its
   * configs name no policy); a topic that names one, or does not exist, is left as it is.
   */
  async compactInternalTopic(name: string): Promise<void> {
    const existing = this.view.topic(name);
    if (existing === undefined || existing.configs['cleanup.policy'] !== undefined) return;
    await this.setConfigs(name, { ...existing.configs, 'cleanup.policy': 'compact' });
  }

  /** The spec with the broker's defaults filled in. */
  #resolve(spec: CreateTopicSpec): CreateTopicSpec & { placement: PlacementRequest } {
    const { placement } = spec;
    if (placement?.kind === 'explicit') {
      if (spec.partitionCount !== -1 && spec.partitionCount !== placement.replicas.length) {
        throw new WeirError(ErrorCode.INVALID_REQUEST, {
          detail: 'with replica assignments, the partition count and replication factor must be -1',
        });
      }
      return { ...spec, partitionCount: placement.replicas.length, placement };
    }
    const replicationFactor =
      placement === undefined || placement.replicationFactor === -1
        ? this.defaults.defaultReplicationFactor
        : placement.replicationFactor;
    return {
      ...spec,
      partitionCount: spec.partitionCount === -1 ? this.defaults.defaultPartitions : spec.partitionCount,
      placement: { kind: 'factor', replicationFactor },
    };
  }

  #existing(name: string): TopicRecord {
    const record = this.view.topic(name);
    if (!record) {
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `topic "${name}" does not exist` });
    }
    return record;
  }

  /**
   * New partitions of an existing topic keep its replication factor (Kafka's rule), unless the
   * request gives their replicas.
   */
  #growthPlacement(name: string, replicas: readonly (readonly number[])[] | undefined): PlacementRequest {
    const replicationFactor =
      this.view.assignment(name, 0)?.replicas.length ?? this.defaults.defaultReplicationFactor;
    if (replicas !== undefined && replicas.length > 0) {
      // Kafka refuses new partitions whose replica count differs from the topic's.
      const odd = replicas.findIndex((list) => list.length !== replicationFactor);
      if (odd !== -1) {
        throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
          detail: `new partition assignment ${odd} has ${replicas[odd]!.length} replica(s), but topic "${name}" has a replication factor of ${replicationFactor}`,
        });
      }
      return { kind: 'explicit', replicas };
    }
    return { kind: 'factor', replicationFactor };
  }

  #place(name: string, first: number, count: number, placement: PlacementRequest | undefined) {
    const brokers = this.view.brokers();
    const live = brokers.map((broker) => broker.brokerId);
    const racks = new Map(brokers.map((broker) => [broker.brokerId, broker.rack]));
    const request = placement ?? {
      kind: 'factor',
      replicationFactor: this.defaults.defaultReplicationFactor,
    };
    if (request.kind === 'factor') checkReplicationFactor(request.replicationFactor, live.length);
    // Leaders continue the round of the partitions before them (partition numbers, not a new start).
    const placed = placePartitions(name, first, count, request, live, 0, racks);
    // Every replica starts in sync, with the storage it has now (docs/architecture.md §6.5).
    const storage = new Map(
      brokers.flatMap((broker) =>
        broker.storageId === undefined ? [] : [[broker.brokerId, broker.storageId] as const],
      ),
    );
    if (storage.size === 0) return placed;
    return placed.map((assignment) => ({
      ...assignment,
      memberStorage: Object.fromEntries(
        assignment.isr.flatMap((id) => (storage.has(id) ? [[String(id), storage.get(id)!]] : [])),
      ),
    }));
  }
}

function checkMinInsyncReplicas(configs: Record<string, string | null>, replicationFactor: number): void {
  const problem = minInsyncReplicasProblem(configs, replicationFactor);
  if (problem) throw new WeirError(ErrorCode.INVALID_CONFIG, { detail: problem });
}

function checkPartitionCount(partitionCount: number): void {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new WeirError(ErrorCode.INVALID_PARTITIONS, {
      detail: `partition count ${partitionCount} must be at least 1`,
    });
  }
  if (partitionCount > MAX_PARTITIONS_PER_TOPIC) {
    throw new WeirError(ErrorCode.INVALID_PARTITIONS, {
      detail: `partition count ${partitionCount} exceeds the maximum of ${MAX_PARTITIONS_PER_TOPIC}`,
    });
  }
}
