import { Metadata } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * Metadata v1–6: brokers, the controller, and topics with their partitions. A null topic list
 * means all topics (and never auto-creates); auto-creation also needs the request's consent,
 * which versions before 4 give implicitly.
 */
export const metadataHandler = defineHandler({
  api: Metadata,
  versions: { min: 1, max: 6 },
  async handle(request, context, commands) {
    const cluster = commands.cluster.describeCluster(context.listenerName);
    const names = request.topics === null ? null : request.topics.map((topic) => topic.name);
    const allowAutoCreate = context.header.apiVersion < 4 || request.allowAutoTopicCreation;
    const topics = await commands.topics.describeTopics(names, allowAutoCreate);
    return {
      throttleTimeMs: 0,
      brokers: cluster.brokers.map((broker) => ({
        nodeId: broker.nodeId,
        host: broker.host,
        port: broker.port,
        rack: broker.rack,
      })),
      clusterId: cluster.clusterId,
      controllerId: cluster.controllerId,
      topics: topics.map((topic) => ({
        errorCode: topic.errorCode,
        name: topic.name,
        isInternal: topic.isInternal,
        partitions: topic.partitions.map((partition) => ({
          errorCode: partition.errorCode,
          partitionIndex: partition.partition,
          leaderId: partition.leaderId,
          leaderEpoch: -1,
          replicaNodes: partition.replicaNodes,
          isrNodes: partition.isrNodes,
          offlineReplicas: partition.offlineReplicas,
        })),
      })),
    };
  },
});
