import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClusterView } from '../metadata/cluster-view';
import type { TopicManager } from './topic-manager';
import { topicNameProblem } from './topic-name';

/** One partition as Metadata describes it. */
export interface PartitionDescription {
  partition: number;
  errorCode: number;
  leaderId: number;
  leaderEpoch: number;
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

/** Which of this broker's own replicas cannot serve (their logs are offline). */
export interface LocalReplicaHealth {
  isOffline(topic: string, partition: number): boolean;
}

/**
 * Topics as Metadata and the operator tools describe them, from the cluster view: each partition's
 * leader (with its epoch), replicas and in-sync replicas as its assignment says, with the replicas
 * that cannot serve as offline: those on brokers that are not live, and this broker's own when its
 * log is offline. A partition whose leader cannot serve is answered without one
 * (LEADER_NOT_AVAILABLE, or KAFKA_STORAGE_ERROR when it is this broker's log that failed).
 */
export class TopicDescriptions {
  constructor(
    private readonly view: ClusterView,
    private readonly topics: TopicManager,
    private readonly localReplicas: LocalReplicaHealth,
    private readonly autoCreate: { enabled: boolean; partitionCount: number },
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
    if (names === null) return this.view.topics().map((topic) => this.describe(topic.name));
    const descriptions: TopicDescription[] = [];
    for (const name of names) {
      if (!this.view.topic(name) && topicNameProblem(name)) {
        // An illegal name is reported as such, whether or not it would have been auto-created.
        descriptions.push(missing(name, ErrorCode.INVALID_TOPIC_EXCEPTION));
        continue;
      }
      if (!this.view.topic(name) && allowAutoCreate && this.autoCreate.enabled) {
        if (!mayCreate(name)) {
          descriptions.push(missing(name, ErrorCode.TOPIC_AUTHORIZATION_FAILED));
          continue;
        }
        try {
          await this.topics.createTopic({
            name,
            partitionCount: this.autoCreate.partitionCount,
            configs: {},
          });
        } catch (error) {
          // Another request may have created it meanwhile; anything else is reported on the topic.
          if (!(error instanceof WeirError)) throw error;
          if (error.code !== ErrorCode.TOPIC_ALREADY_EXISTS) {
            descriptions.push(missing(name, error.code));
            continue;
          }
        }
      }
      descriptions.push(this.describe(name));
    }
    return descriptions;
  }

  /** The name of the topic with this id, or undefined when no topic has it. */
  nameOfTopicId(topicId: string): string | undefined {
    return this.view.topicById(topicId)?.name;
  }

  /** Lists topics, internal ones only when asked, as the console and CLI show them. */
  listTopics(options: { includeInternal: boolean }): TopicDescription[] {
    return this.view
      .topics()
      .filter((topic) => options.includeInternal || !topic.internal)
      .map((topic) => this.describe(topic.name));
  }

  describe(name: string): TopicDescription {
    const topic = this.view.topic(name);
    if (!topic) return missing(name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const partitions: PartitionDescription[] = [];
    for (let partition = 0; partition < topic.partitionCount; partition++) {
      partitions.push(this.#describePartition(name, partition));
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

  #describePartition(topic: string, partition: number): PartitionDescription {
    const assignment = this.view.assignment(topic, partition);
    if (assignment === undefined) {
      // A partition always has an assignment; its absence means the view is mid-change.
      return {
        partition,
        errorCode: ErrorCode.LEADER_NOT_AVAILABLE,
        leaderId: -1,
        leaderEpoch: -1,
        replicaNodes: [],
        isrNodes: [],
        offlineReplicas: [],
      };
    }
    const local = this.view.localBrokerId;
    const cannotServe = (brokerId: number) =>
      !this.view.isLive(brokerId) || (brokerId === local && this.localReplicas.isOffline(topic, partition));
    const offlineReplicas = assignment.replicas.filter(cannotServe);
    const leaderServes = assignment.leader >= 0 && !cannotServe(assignment.leader);
    const errorCode = leaderServes
      ? ErrorCode.NONE
      : assignment.leader === local
        ? ErrorCode.KAFKA_STORAGE_ERROR
        : ErrorCode.LEADER_NOT_AVAILABLE;
    return {
      partition,
      errorCode,
      leaderId: leaderServes ? assignment.leader : -1,
      leaderEpoch: assignment.leaderEpoch,
      replicaNodes: [...assignment.replicas],
      isrNodes: assignment.isr.filter((brokerId) => !cannotServe(brokerId)),
      offlineReplicas,
    };
  }
}

function missing(name: string, errorCode: number): TopicDescription {
  return { name, topicId: null, errorCode, isInternal: false, partitions: [], configs: {} };
}
