import type { Fetch } from '../messages/apis/fetch';
import type { RequestOf, ResponseOf } from '../schema/api';
import type { ConsumerSettings } from './consumer-options';
import type { PartitionState } from './consumer-partition';

const MAX_INT32 = 0x7fffffff;

type FetchedPartition = ResponseOf<typeof Fetch>['responses'][number]['partitions'][number];

/**
 * One Fetch for partitions of the same leader, each from its position. No fetch session: every
 * request names all its partitions (session id 0, epoch -1).
 */
export function fetchRequest(
  states: readonly PartitionState[],
  positions: readonly bigint[],
  maxWaitMs: number,
  settings: ConsumerSettings,
): RequestOf<typeof Fetch> {
  const body: RequestOf<typeof Fetch> = {
    replicaId: -1,
    maxWaitMs: Math.min(MAX_INT32, Math.round(maxWaitMs)),
    minBytes: settings.minBytes,
    maxBytes: settings.maxBytes,
    isolationLevel: settings.isolationLevel === 'read_committed' ? 1 : 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [],
    forgottenTopicsData: [],
    rackId: '',
  };
  states.forEach((state, index) => {
    let topic = body.topics.find((candidate) => candidate.topic === state.topic);
    if (topic === undefined) {
      topic = { topic: state.topic, partitions: [] };
      body.topics.push(topic);
    }
    topic.partitions.push({
      partition: state.partition,
      currentLeaderEpoch: -1,
      fetchOffset: positions[index]!,
      logStartOffset: -1n,
      partitionMaxBytes: settings.partitionMaxBytes,
    });
  });
  return body;
}

/** The Fetch answer's part about one partition, if it has one. */
export function fetchedPartition(
  response: ResponseOf<typeof Fetch>,
  state: PartitionState,
): FetchedPartition | undefined {
  return response.responses
    .find((topic) => topic.topic === state.topic)
    ?.partitions.find((partition) => partition.partitionIndex === state.partition);
}
