import { ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerConfig } from '../config/broker-config';
import type { LogManager } from '../log/log-manager';
import type { TopicManager } from '../topics/topic-manager';
import { topicNameProblem } from '../topics/topic-name';
import { type CommandResult, resultOf } from './command-result';

/** One partition as Metadata describes it. */
export interface PartitionDescription {
  partition: number;
  errorCode: number;
  leaderId: number;
  replicaNodes: number[];
  isrNodes: number[];
  offlineReplicas: number[];
}

/** One topic as Metadata describes it; `errorCode` is non-zero for unknown or invalid names. */
export interface TopicDescription {
  name: string;
  topicId: string | null;
  errorCode: number;
  isInternal: boolean;
  partitions: PartitionDescription[];
  configs: Record<string, string>;
}

export interface CreateTopicRequest {
  name: string;
  /** -1 means the broker default (CreateTopics v4+). */
  partitionCount: number;
  /** -1 means the broker default; anything but 1 is refused in standalone mode. */
  replicationFactor: number;
  /** Explicit replica assignments per partition; only [[self]]-style assignments are possible here. */
  assignments: { partition: number; brokerIds: number[] }[];
  configs: Record<string, string | null>;
}

/** Topic commands: what Metadata, CreateTopics, DeleteTopics and CreatePartitions need. */
export class TopicCommands {
  constructor(
    private readonly topics: TopicManager,
    private readonly logs: LogManager,
    private readonly config: BrokerConfig,
    private readonly nodeId: number,
  ) {}

  /**
   * Describes topics for Metadata. `names` null means every topic. A missing topic is created only
   * when both the broker (`topics.autoCreateEnable`) and the request allow it, and never for a null
   * list (kafkajs asks for all topics with auto-creation on). One the principal may not create
   * (`mayCreate`) is answered TOPIC_AUTHORIZATION_FAILED instead, as Kafka does.
   */
  async describeTopics(
    names: string[] | null,
    allowAutoCreate: boolean,
    mayCreate: (name: string) => boolean = () => true,
  ): Promise<TopicDescription[]> {
    if (names === null) return this.topics.listTopics().map((topic) => this.#describe(topic.name));
    const descriptions: TopicDescription[] = [];
    for (const name of names) {
      if (!this.topics.getTopic(name) && topicNameProblem(name)) {
        // An illegal name is reported as such, whether or not it would have been auto-created.
        descriptions.push(this.#missing(name, ErrorCode.INVALID_TOPIC_EXCEPTION));
        continue;
      }
      if (!this.topics.getTopic(name) && allowAutoCreate && this.config.topics.autoCreateEnable) {
        if (!mayCreate(name)) {
          descriptions.push(this.#missing(name, ErrorCode.TOPIC_AUTHORIZATION_FAILED));
          continue;
        }
        try {
          await this.topics.createTopic({
            name,
            partitionCount: this.config.topics.defaultPartitions,
            configs: {},
          });
        } catch (error) {
          // Another request may have created it meanwhile; anything else is reported on the topic.
          if (!(error instanceof WeirError && error.code === ErrorCode.TOPIC_ALREADY_EXISTS)) {
            descriptions.push(this.#missing(name, errorCodeOf(error)));
            continue;
          }
        }
      }
      descriptions.push(this.#describe(name));
    }
    return descriptions;
  }

  /** Lists topics, internal ones only when asked, as the console and CLI show them. */
  listTopics(options: { includeInternal: boolean }): TopicDescription[] {
    return this.topics
      .listTopics()
      .filter((topic) => options.includeInternal || !topic.internal)
      .map((topic) => this.#describe(topic.name));
  }

  /**
   * Creates the topics concurrently, so the metadata store writes them in one go. A name given
   * twice in one request is refused for each occurrence (INVALID_REQUEST), as Kafka does.
   */
  async createTopics(
    requests: CreateTopicRequest[],
    validateOnly: boolean,
  ): Promise<CommandResult<{ name: string; partitionCount: number }>[]> {
    const duplicated = namesGivenTwice(requests.map((request) => request.name));
    return Promise.all(
      requests.map((request) =>
        resultOf(async () => {
          if (duplicated.has(request.name)) {
            throw new WeirError(ErrorCode.INVALID_REQUEST, {
              detail: `topic "${request.name}" is listed more than once in the request`,
            });
          }
          const partitionCount = this.#checkReplication(request);
          const spec = { name: request.name, partitionCount, configs: request.configs };
          if (validateOnly) this.topics.validateCreate(spec);
          else await this.topics.createTopic(spec);
          return { name: request.name, partitionCount };
        }),
      ),
    );
  }

  async deleteTopics(names: string[]): Promise<CommandResult<{ name: string }>[]> {
    const duplicated = namesGivenTwice(names);
    return Promise.all(
      names.map((name) =>
        resultOf(async () => {
          if (duplicated.has(name)) {
            throw new WeirError(ErrorCode.INVALID_REQUEST, {
              detail: `topic "${name}" is listed more than once in the request`,
            });
          }
          await this.topics.deleteTopic(name);
          return { name };
        }),
      ),
    );
  }

  async createPartitions(
    requests: { name: string; count: number; assignments: number[][] | null }[],
    validateOnly: boolean,
  ): Promise<CommandResult<{ name: string }>[]> {
    const results = [];
    for (const request of requests) {
      results.push(
        await resultOf(async () => {
          for (const replicas of request.assignments ?? []) this.#checkReplicas(replicas);
          if (validateOnly) this.topics.validateCreatePartitions(request.name, request.count);
          else await this.topics.createPartitions(request.name, request.count);
          return { name: request.name };
        }),
      );
    }
    return results;
  }

  /** Checks replication settings and returns the partition count the request asks for. */
  #checkReplication(request: CreateTopicRequest): number {
    if (request.assignments.length > 0) {
      if (request.partitionCount !== -1 || request.replicationFactor !== -1) {
        throw new WeirError(ErrorCode.INVALID_REQUEST, {
          detail: 'with replica assignments, the partition count and replication factor must be -1',
        });
      }
      for (const assignment of request.assignments) this.#checkReplicas(assignment.brokerIds);
      return request.assignments.length;
    }
    if (request.replicationFactor !== -1 && request.replicationFactor !== 1) {
      throw new WeirError(ErrorCode.INVALID_REPLICATION_FACTOR, {
        detail: `replication factor ${request.replicationFactor} needs more brokers than the 1 this standalone broker has`,
      });
    }
    return request.partitionCount === -1 ? this.config.topics.defaultPartitions : request.partitionCount;
  }

  #checkReplicas(replicas: number[]): void {
    if (replicas.length !== 1 || replicas[0] !== this.nodeId) {
      throw new WeirError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, {
        detail: `replicas [${replicas.join(', ')}] are not possible on standalone broker ${this.nodeId}`,
      });
    }
  }

  #describe(name: string): TopicDescription {
    const topic = this.topics.getTopic(name);
    if (!topic) return this.#missing(name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const partitions: PartitionDescription[] = [];
    for (let partition = 0; partition < topic.partitionCount; partition++) {
      const offline = this.logs.isOffline(name, partition) || !this.logs.getLog(name, partition);
      partitions.push({
        partition,
        errorCode: offline ? ErrorCode.KAFKA_STORAGE_ERROR : ErrorCode.NONE,
        leaderId: offline ? -1 : this.nodeId,
        replicaNodes: [this.nodeId],
        isrNodes: offline ? [] : [this.nodeId],
        offlineReplicas: offline ? [this.nodeId] : [],
      });
    }
    return {
      name,
      topicId: topic.topicId,
      errorCode: ErrorCode.NONE,
      isInternal: topic.internal,
      partitions,
      configs: topic.configs,
    };
  }

  #missing(name: string, errorCode: number): TopicDescription {
    return { name, topicId: null, errorCode, isInternal: false, partitions: [], configs: {} };
  }
}

function errorCodeOf(error: unknown): number {
  return error instanceof WeirError ? error.code : ErrorCode.UNKNOWN_SERVER_ERROR;
}

/** Names that occur more than once in the list. */
function namesGivenTwice(names: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return twice;
}
