import { ErrorCode } from '@weir/protocol';
import { SERVER_ASSIGNORS, serverAssignor } from './assignor';
import { LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH } from './consumer-member';

/** A ConsumerGroupHeartbeat as the coordinator takes it (null: unchanged since the last heartbeat). */
export interface ConsumerHeartbeatRequest {
  groupId: string;
  /** Empty for a member joining for the first time (v0: the coordinator makes the id). */
  memberId: string;
  memberEpoch: number;
  instanceId: string | null;
  rackId: string | null;
  /** -1 when unchanged. */
  rebalanceTimeoutMs: number;
  subscribedTopicNames: string[] | null;
  serverAssignor: string | null;
  topicPartitions: { topicId: string; partitions: number[] }[] | null;
  clientId: string;
  clientHost: string;
}

/** What a ConsumerGroupHeartbeat answers. */
export interface ConsumerHeartbeatOutcome {
  errorCode: number;
  errorMessage: string | null;
  memberId: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
  assignment: { topicPartitions: { topicId: string; partitions: number[] }[] } | null;
}

/** A heartbeat refused with a Kafka error and Kafka's message for it. */
export class HeartbeatRefusedError extends Error {
  constructor(
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HeartbeatRefusedError';
  }
}

export function refusal(errorCode: number, errorMessage: string | null): ConsumerHeartbeatOutcome {
  return {
    errorCode,
    errorMessage,
    memberId: null,
    memberEpoch: 0,
    heartbeatIntervalMs: 0,
    assignment: null,
  };
}

/**
 * Kafka's checks of a heartbeat before it reaches a group (GroupMetadataManager's
 * throwIfConsumerGroupHeartbeatRequestIsInvalid), with its messages: INVALID_REQUEST for a
 * malformed one, UNSUPPORTED_ASSIGNOR for an assignor this broker does not have. Null when valid.
 */
export function heartbeatRequestProblem(request: ConsumerHeartbeatRequest): HeartbeatRefusedError | null {
  const invalid = (message: string) => new HeartbeatRefusedError(ErrorCode.INVALID_REQUEST, message);
  if (request.groupId === '') return invalid("GroupId can't be empty.");
  if (request.instanceId === '') return invalid("InstanceId can't be empty.");
  if (request.rackId === '') return invalid("RackId can't be empty.");
  const epoch = request.memberEpoch;
  if (epoch > 0 || epoch === LEAVE_GROUP_MEMBER_EPOCH) {
    if (request.memberId === '') return invalid("MemberId can't be empty.");
  } else if (epoch === 0) {
    if (request.rebalanceTimeoutMs === -1)
      return invalid('RebalanceTimeoutMs must be provided in first request.');
    if (request.topicPartitions === null || request.topicPartitions.length > 0) {
      return invalid('TopicPartitions must be empty when (re-)joining.');
    }
    if (request.subscribedTopicNames === null || request.subscribedTopicNames.length === 0) {
      return invalid('SubscribedTopicNames must be set in first request.');
    }
  } else if (epoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    if (request.memberId === '') return invalid("MemberId can't be empty.");
    if (request.instanceId === null) return invalid("InstanceId can't be null.");
  } else {
    return invalid('MemberEpoch is invalid.');
  }
  if (request.serverAssignor !== null && !serverAssignor(request.serverAssignor)) {
    return new HeartbeatRefusedError(
      ErrorCode.UNSUPPORTED_ASSIGNOR,
      `ServerAssignor ${request.serverAssignor} is not supported. Supported assignors: ${SERVER_ASSIGNORS.map((assignor) => assignor.name).join(', ')}.`,
    );
  }
  return null;
}
