import { ErrorCode } from '../errors/error-codes';
import { ElectLeaders } from '../messages/apis/elect-leaders';
import { brokerError } from './admin-error';
import type { Client } from './client';

/**
 * Kafka's election types (KIP-460): `preferred` makes each partition's first replica its leader
 * again when it is a live in-sync replica; `unclean` gives a leaderless partition a leader, an
 * out-of-sync replica if nothing else is live (what it lacked is lost).
 */
export type ElectionTypeName = 'preferred' | 'unclean';

/** What to elect: `electLeaders` elects leaders of these partitions, or of every partition without them. */
export interface ElectLeadersRequest {
  readonly electionType: ElectionTypeName;
  /** The partitions, by topic; absent means every partition of every topic. */
  readonly partitions?: readonly { readonly topic: string; readonly partitions: readonly number[] }[];
  /** How long the broker may take for the writes and for its view to show the new leaders. */
  readonly timeoutMs?: number;
}

/**
 * One partition's outcome. `errorCode` is NONE when it was elected, ELECTION_NOT_NEEDED when its
 * leader already is the one the election would choose, PREFERRED_LEADER_NOT_AVAILABLE (preferred:
 * the first replica is not live or not in sync), ELIGIBLE_LEADERS_NOT_AVAILABLE (unclean: no replica
 * is live) or UNKNOWN_TOPIC_OR_PARTITION, with the broker's message.
 */
export interface PartitionElectionResult {
  readonly topic: string;
  readonly partition: number;
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

/**
 * ElectLeaders at the controller (any Weir broker would do; Kafka's admin client asks the
 * controller). Per-partition failures are results, not exceptions, since ELECTION_NOT_NEEDED is the
 * usual answer for most partitions; a failure of the whole request (CLUSTER_AUTHORIZATION_FAILED
 * without ALTER on the cluster) is thrown. Without `partitions` the broker leaves out partitions
 * whose election was not needed, as Kafka does.
 */
export async function electLeaders(
  client: Client,
  request: ElectLeadersRequest,
): Promise<PartitionElectionResult[]> {
  const timeoutMs = request.timeoutMs ?? client.requestTimeoutMs;
  const response = await client.retry(async () => {
    const answer = await client.send(
      'controller',
      ElectLeaders,
      {
        electionType: request.electionType === 'unclean' ? 1 : 0,
        topicPartitions:
          request.partitions === undefined
            ? null
            : request.partitions.map((entry) => ({ topic: entry.topic, partitions: [...entry.partitions] })),
        timeoutMs,
      },
      // The broker waits up to timeoutMs for the elections; the answer may take that long.
      { timeoutMs: timeoutMs + client.requestTimeoutMs },
    );
    if (answer.errorCode !== ErrorCode.NONE) {
      throw brokerError(answer.errorCode, null, 'The leader election was refused.');
    }
    return answer;
  });
  return response.replicaElectionResults
    .flatMap((topic) =>
      topic.partitionResult.map((result) => ({
        topic: topic.topic,
        partition: result.partitionId,
        errorCode: result.errorCode,
        errorMessage: result.errorMessage,
      })),
    )
    .sort((left, right) =>
      left.topic === right.topic ? left.partition - right.partition : left.topic < right.topic ? -1 : 1,
    );
}
