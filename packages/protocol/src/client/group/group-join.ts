import { ErrorCode } from '../../errors/error-codes';
import type { JoinGroup } from '../../messages/apis/join-group';
import type { SyncGroup } from '../../messages/apis/sync-group';
import {
  decodeConsumerSubscription,
  encodeConsumerAssignment,
  encodeConsumerSubscription,
} from '../../records/consumer-protocol';
import type { RequestOf, ResponseOf } from '../../schema/api';
import type { Client } from '../client';
import type { Assignor, AssignorMember } from './assignor';
import type { TopicPartition } from './group-consumer-options';
import { groupTopics } from './group-consumer-support';

/** Kafka's "consumer" protocol type and the subscription version this SDK sends (with owned partitions). */
const PROTOCOL_TYPE = 'consumer';
const SUBSCRIPTION_VERSION = 1;
const ASSIGNMENT_VERSION = 1;

export interface JoinParameters {
  readonly groupId: string;
  readonly memberId: string;
  /** Static membership's instance id (JoinGroup v5+), or null. */
  readonly groupInstanceId: string | null;
  readonly topics: readonly string[];
  /** Sent in the subscription so sticky assignors can keep them where they are. */
  readonly ownedPartitions: readonly TopicPartition[];
  readonly assignors: readonly Assignor[];
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  /** How long the request may wait at the coordinator. */
  readonly waitMs: number;
}

/**
 * JoinGroup, sent a second time with the member id the coordinator asks for (KIP-394);
 * `onMemberId` hears that id so a retry after a failure reuses it.
 */
export async function joinGroup(
  send: (body: RequestOf<typeof JoinGroup>, timeoutMs: number) => Promise<ResponseOf<typeof JoinGroup>>,
  parameters: JoinParameters,
  onMemberId: (memberId: string) => void,
): Promise<ResponseOf<typeof JoinGroup>> {
  const metadata = encodeConsumerSubscription({
    version: SUBSCRIPTION_VERSION,
    topics: [...parameters.topics],
    userData: null,
    ownedPartitions: groupTopics(parameters.ownedPartitions),
  });
  let memberId = parameters.memberId;
  for (;;) {
    const response = await send(
      {
        groupId: parameters.groupId,
        sessionTimeoutMs: parameters.sessionTimeoutMs,
        rebalanceTimeoutMs: parameters.rebalanceTimeoutMs,
        memberId,
        groupInstanceId: parameters.groupInstanceId,
        protocolType: PROTOCOL_TYPE,
        protocols: parameters.assignors.map((assignor) => ({ name: assignor.name, metadata })),
      },
      parameters.waitMs,
    );
    if (response.errorCode !== ErrorCode.MEMBER_ID_REQUIRED) return response;
    memberId = response.memberId;
    onMemberId(memberId);
  }
}

/** The leader's job: every member's partitions, encoded for SyncGroup. */
export async function leaderAssignments(
  client: Client,
  assignor: Assignor,
  members: ResponseOf<typeof JoinGroup>['members'],
): Promise<RequestOf<typeof SyncGroup>['assignments']> {
  const decoded: AssignorMember[] = members.map((member) => {
    const subscription = decodeConsumerSubscription(member.metadata);
    return {
      memberId: member.memberId,
      topics: subscription?.topics ?? [],
      ownedPartitions: subscription?.ownedPartitions ?? [],
    };
  });
  const topics = [...new Set(decoded.flatMap((member) => member.topics))];
  // One metadata request, not retried per topic: a subscribed topic that does not exist simply
  // gets no partitions (retrying it could outlast the rebalance timeout).
  for (const topic of topics) client.invalidateMetadata(topic);
  const counts = new Map<string, number>();
  for (const [topic, metadata] of await client.topicsMetadata(topics)) {
    if (metadata.errorCode === ErrorCode.NONE) counts.set(topic, metadata.partitions.length);
  }
  const result = assignor.assign(decoded, counts);
  return decoded.map((member) => ({
    memberId: member.memberId,
    assignment: encodeConsumerAssignment({
      version: ASSIGNMENT_VERSION,
      partitions: result.get(member.memberId) ?? [],
      userData: null,
    }),
  }));
}
