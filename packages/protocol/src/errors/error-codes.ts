/**
 * Kafka's error codes: the one table of the project. Numbers, names and the retriable flag follow
 * Apache Kafka's `Errors.java` (trunk, October 2024); `retriable` is true exactly when Kafka's
 * exception for the code is a subclass of `RetriableException`. The descriptions are our own words.
 *
 * Every entry is declared once, below, keyed by name; the `ErrorCode` constant, the table and the
 * reverse lookup are derived from it, so a name and its number can never drift apart.
 */

interface ErrorDefinition {
  readonly code: number;
  readonly retriable: boolean;
  readonly message: string;
}

const errorDefinitions = {
  UNKNOWN_SERVER_ERROR: { code: -1, retriable: false, message: 'The server failed unexpectedly.' },
  NONE: { code: 0, retriable: false, message: 'No error.' },
  OFFSET_OUT_OF_RANGE: {
    code: 1,
    retriable: false,
    message: 'The offset is outside the range the partition holds.',
  },
  CORRUPT_MESSAGE: {
    code: 2,
    retriable: true,
    message: 'A record batch failed its checksum, size or format checks.',
  },
  UNKNOWN_TOPIC_OR_PARTITION: {
    code: 3,
    retriable: true,
    message: 'This broker does not host that topic or partition.',
  },
  INVALID_FETCH_SIZE: { code: 4, retriable: false, message: 'The fetch size is not valid.' },
  LEADER_NOT_AVAILABLE: {
    code: 5,
    retriable: true,
    message: 'The partition has no leader right now (an election or topic creation is under way).',
  },
  NOT_LEADER_OR_FOLLOWER: {
    code: 6,
    retriable: true,
    message: 'This broker is not the leader (or a follower) of that partition.',
  },
  REQUEST_TIMED_OUT: { code: 7, retriable: true, message: 'The request did not complete in time.' },
  BROKER_NOT_AVAILABLE: { code: 8, retriable: false, message: 'The broker is not available.' },
  REPLICA_NOT_AVAILABLE: {
    code: 9,
    retriable: true,
    message: 'A replica of that partition is not available.',
  },
  MESSAGE_TOO_LARGE: {
    code: 10,
    retriable: false,
    message: 'A record batch is larger than the topic allows.',
  },
  STALE_CONTROLLER_EPOCH: { code: 11, retriable: false, message: 'The controller has moved.' },
  OFFSET_METADATA_TOO_LARGE: {
    code: 12,
    retriable: false,
    message: 'The metadata attached to a committed offset is too large.',
  },
  NETWORK_EXCEPTION: {
    code: 13,
    retriable: true,
    message: 'The connection closed before a response arrived.',
  },
  COORDINATOR_LOAD_IN_PROGRESS: {
    code: 14,
    retriable: true,
    message: 'The coordinator is still loading its state.',
  },
  COORDINATOR_NOT_AVAILABLE: { code: 15, retriable: true, message: 'The coordinator is not available.' },
  NOT_COORDINATOR: { code: 16, retriable: true, message: 'This broker is not the coordinator for that key.' },
  INVALID_TOPIC_EXCEPTION: { code: 17, retriable: false, message: 'The topic name is not valid.' },
  RECORD_LIST_TOO_LARGE: {
    code: 18,
    retriable: false,
    message: 'A record batch is larger than the segment size.',
  },
  NOT_ENOUGH_REPLICAS: {
    code: 19,
    retriable: true,
    message: 'Fewer replicas are in sync than the topic requires; nothing was written.',
  },
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: {
    code: 20,
    retriable: true,
    message: 'The records were written, but fewer replicas are in sync than the topic requires.',
  },
  INVALID_REQUIRED_ACKS: { code: 21, retriable: false, message: 'The acks value is not -1, 0 or 1.' },
  ILLEGAL_GENERATION: { code: 22, retriable: false, message: 'The group generation is not current.' },
  INCONSISTENT_GROUP_PROTOCOL: {
    code: 23,
    retriable: false,
    message: 'The member shares no protocol type or assignor with the group.',
  },
  INVALID_GROUP_ID: { code: 24, retriable: false, message: 'The group id is not valid.' },
  UNKNOWN_MEMBER_ID: { code: 25, retriable: false, message: 'The coordinator does not know this member.' },
  INVALID_SESSION_TIMEOUT: {
    code: 26,
    retriable: false,
    message: 'The session timeout is outside the range the broker allows.',
  },
  REBALANCE_IN_PROGRESS: {
    code: 27,
    retriable: false,
    message: 'The group is rebalancing; the member must rejoin.',
  },
  INVALID_COMMIT_OFFSET_SIZE: {
    code: 28,
    retriable: false,
    message: 'The offset commit is too large to store.',
  },
  TOPIC_AUTHORIZATION_FAILED: { code: 29, retriable: false, message: 'Not authorized for that topic.' },
  GROUP_AUTHORIZATION_FAILED: { code: 30, retriable: false, message: 'Not authorized for that group.' },
  CLUSTER_AUTHORIZATION_FAILED: {
    code: 31,
    retriable: false,
    message: 'Not authorized for that cluster operation.',
  },
  INVALID_TIMESTAMP: {
    code: 32,
    retriable: false,
    message: 'A record timestamp is outside the accepted range.',
  },
  UNSUPPORTED_SASL_MECHANISM: {
    code: 33,
    retriable: false,
    message: 'The broker does not offer that SASL mechanism.',
  },
  ILLEGAL_SASL_STATE: {
    code: 34,
    retriable: false,
    message: 'The request is out of order for the SASL exchange.',
  },
  UNSUPPORTED_VERSION: {
    code: 35,
    retriable: false,
    message: 'The broker does not support that API version.',
  },
  TOPIC_ALREADY_EXISTS: { code: 36, retriable: false, message: 'A topic with that name already exists.' },
  INVALID_PARTITIONS: { code: 37, retriable: false, message: 'The partition count is not valid.' },
  INVALID_REPLICATION_FACTOR: {
    code: 38,
    retriable: false,
    message: 'The replication factor is below 1 or above the number of brokers.',
  },
  INVALID_REPLICA_ASSIGNMENT: { code: 39, retriable: false, message: 'The replica assignment is not valid.' },
  INVALID_CONFIG: { code: 40, retriable: false, message: 'The configuration is not valid.' },
  NOT_CONTROLLER: { code: 41, retriable: true, message: 'This broker is not the controller.' },
  INVALID_REQUEST: {
    code: 42,
    retriable: false,
    message: 'The request is malformed or not valid for this broker.',
  },
  UNSUPPORTED_FOR_MESSAGE_FORMAT: {
    code: 43,
    retriable: false,
    message: 'The message format of the topic does not support the request.',
  },
  POLICY_VIOLATION: { code: 44, retriable: false, message: 'The request breaks a configured policy.' },
  OUT_OF_ORDER_SEQUENCE_NUMBER: {
    code: 45,
    retriable: false,
    message: 'The producer sequence number is not the next one expected.',
  },
  DUPLICATE_SEQUENCE_NUMBER: {
    code: 46,
    retriable: false,
    message: 'The producer sequence number was already written.',
  },
  INVALID_PRODUCER_EPOCH: {
    code: 47,
    retriable: false,
    message: 'The producer epoch is older than the current one.',
  },
  INVALID_TXN_STATE: {
    code: 48,
    retriable: false,
    message: 'The transactional operation is not valid in the current transaction state.',
  },
  INVALID_PRODUCER_ID_MAPPING: {
    code: 49,
    retriable: false,
    message: 'The producer id is not the one assigned to this transactional id.',
  },
  INVALID_TRANSACTION_TIMEOUT: {
    code: 50,
    retriable: false,
    message: 'The transaction timeout is above the broker maximum.',
  },
  CONCURRENT_TRANSACTIONS: {
    code: 51,
    retriable: true,
    message: 'A previous commit or abort of this transaction is still completing.',
  },
  TRANSACTION_COORDINATOR_FENCED: {
    code: 52,
    retriable: false,
    message: 'A newer transaction coordinator has taken over.',
  },
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: {
    code: 53,
    retriable: false,
    message: 'Not authorized for that transactional id.',
  },
  SECURITY_DISABLED: { code: 54, retriable: false, message: 'Security features are turned off.' },
  OPERATION_NOT_ATTEMPTED: {
    code: 55,
    retriable: false,
    message: 'The broker skipped this operation because another part of the request failed.',
  },
  KAFKA_STORAGE_ERROR: { code: 56, retriable: true, message: 'The broker failed to access its log on disk.' },
  LOG_DIR_NOT_FOUND: { code: 57, retriable: false, message: 'The log directory is not configured.' },
  SASL_AUTHENTICATION_FAILED: { code: 58, retriable: false, message: 'SASL authentication failed.' },
  UNKNOWN_PRODUCER_ID: {
    code: 59,
    retriable: false,
    message: 'The broker holds no state for this producer id (it may have expired).',
  },
  REASSIGNMENT_IN_PROGRESS: {
    code: 60,
    retriable: false,
    message: 'A partition reassignment is under way.',
  },
  DELEGATION_TOKEN_AUTH_DISABLED: {
    code: 61,
    retriable: false,
    message: 'Delegation tokens are turned off.',
  },
  DELEGATION_TOKEN_NOT_FOUND: { code: 62, retriable: false, message: 'The delegation token does not exist.' },
  DELEGATION_TOKEN_OWNER_MISMATCH: {
    code: 63,
    retriable: false,
    message: 'The principal does not own or renew that delegation token.',
  },
  DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: {
    code: 64,
    retriable: false,
    message: 'Delegation token requests need an authenticated, encrypted channel.',
  },
  DELEGATION_TOKEN_AUTHORIZATION_FAILED: {
    code: 65,
    retriable: false,
    message: 'Not authorized for that delegation token.',
  },
  DELEGATION_TOKEN_EXPIRED: { code: 66, retriable: false, message: 'The delegation token has expired.' },
  INVALID_PRINCIPAL_TYPE: { code: 67, retriable: false, message: 'The principal type is not supported.' },
  NON_EMPTY_GROUP: { code: 68, retriable: false, message: 'The group still has members.' },
  GROUP_ID_NOT_FOUND: { code: 69, retriable: false, message: 'The group does not exist.' },
  FETCH_SESSION_ID_NOT_FOUND: { code: 70, retriable: true, message: 'The fetch session does not exist.' },
  INVALID_FETCH_SESSION_EPOCH: {
    code: 71,
    retriable: true,
    message: 'The fetch session epoch is not the expected one.',
  },
  LISTENER_NOT_FOUND: {
    code: 72,
    retriable: true,
    message: 'The leader has no listener matching the one this request arrived on.',
  },
  TOPIC_DELETION_DISABLED: { code: 73, retriable: false, message: 'Topic deletion is turned off.' },
  FENCED_LEADER_EPOCH: {
    code: 74,
    retriable: true,
    message: 'The leader epoch in the request is older than the one on this broker.',
  },
  UNKNOWN_LEADER_EPOCH: {
    code: 75,
    retriable: true,
    message: 'The leader epoch in the request is newer than the one on this broker.',
  },
  UNSUPPORTED_COMPRESSION_TYPE: {
    code: 76,
    retriable: false,
    message: 'The client cannot read the compression type used by that partition.',
  },
  STALE_BROKER_EPOCH: { code: 77, retriable: false, message: 'The broker epoch is out of date.' },
  OFFSET_NOT_AVAILABLE: {
    code: 78,
    retriable: true,
    message: 'The high watermark of the new leader has not caught up yet.',
  },
  MEMBER_ID_REQUIRED: {
    code: 79,
    retriable: false,
    message: 'The member must rejoin with the member id the coordinator assigned.',
  },
  PREFERRED_LEADER_NOT_AVAILABLE: {
    code: 80,
    retriable: true,
    message: 'The preferred leader is not available.',
  },
  GROUP_MAX_SIZE_REACHED: { code: 81, retriable: false, message: 'The group is at its maximum size.' },
  FENCED_INSTANCE_ID: {
    code: 82,
    retriable: false,
    message: 'Another member with the same group instance id has taken over.',
  },
  ELIGIBLE_LEADERS_NOT_AVAILABLE: {
    code: 83,
    retriable: true,
    message: 'No eligible leader is available for the partition.',
  },
  ELECTION_NOT_NEEDED: {
    code: 84,
    retriable: true,
    message: 'The partition already has its preferred leader.',
  },
  NO_REASSIGNMENT_IN_PROGRESS: {
    code: 85,
    retriable: false,
    message: 'No partition reassignment is under way.',
  },
  GROUP_SUBSCRIBED_TO_TOPIC: {
    code: 86,
    retriable: false,
    message: 'The group is subscribed to the topic, so its offsets cannot be deleted.',
  },
  INVALID_RECORD: { code: 87, retriable: false, message: 'A record failed broker-side validation.' },
  UNSTABLE_OFFSET_COMMIT: {
    code: 88,
    retriable: true,
    message: 'Offsets from an open transaction are not yet stable.',
  },
  THROTTLING_QUOTA_EXCEEDED: { code: 89, retriable: true, message: 'The throttling quota was exceeded.' },
  PRODUCER_FENCED: {
    code: 90,
    retriable: false,
    message: 'A newer producer with the same transactional id has taken over.',
  },
  RESOURCE_NOT_FOUND: { code: 91, retriable: false, message: 'The resource does not exist.' },
  DUPLICATE_RESOURCE: { code: 92, retriable: false, message: 'The request names the same resource twice.' },
  UNACCEPTABLE_CREDENTIAL: {
    code: 93,
    retriable: false,
    message: 'The credential does not meet the acceptance criteria.',
  },
  INCONSISTENT_VOTER_SET: {
    code: 94,
    retriable: false,
    message: 'The sender or receiver is not in the expected voter set.',
  },
  INVALID_UPDATE_VERSION: { code: 95, retriable: false, message: 'The update version is not valid.' },
  FEATURE_UPDATE_FAILED: {
    code: 96,
    retriable: false,
    message: 'The finalized features could not be updated.',
  },
  PRINCIPAL_DESERIALIZATION_FAILURE: {
    code: 97,
    retriable: false,
    message: 'A forwarded request principal could not be decoded.',
  },
  SNAPSHOT_NOT_FOUND: { code: 98, retriable: false, message: 'The snapshot does not exist.' },
  POSITION_OUT_OF_RANGE: {
    code: 99,
    retriable: false,
    message: 'The position is outside the snapshot.',
  },
  UNKNOWN_TOPIC_ID: { code: 100, retriable: true, message: 'This broker does not host that topic id.' },
  DUPLICATE_BROKER_REGISTRATION: {
    code: 101,
    retriable: false,
    message: 'That broker id is already registered.',
  },
  BROKER_ID_NOT_REGISTERED: { code: 102, retriable: false, message: 'That broker id is not registered.' },
  INCONSISTENT_TOPIC_ID: {
    code: 103,
    retriable: true,
    message: 'The topic id in the request does not match the one in the log.',
  },
  INCONSISTENT_CLUSTER_ID: {
    code: 104,
    retriable: false,
    message: 'The cluster id in the request does not match the one on this server.',
  },
  TRANSACTIONAL_ID_NOT_FOUND: {
    code: 105,
    retriable: false,
    message: 'The transactional id does not exist.',
  },
  FETCH_SESSION_TOPIC_ID_ERROR: {
    code: 106,
    retriable: true,
    message: 'The fetch session mixes topic ids inconsistently.',
  },
  INELIGIBLE_REPLICA: {
    code: 107,
    retriable: false,
    message: 'The proposed ISR contains a replica that is not eligible.',
  },
  NEW_LEADER_ELECTED: {
    code: 108,
    retriable: false,
    message: 'The partition state was updated, but a new leader has been elected.',
  },
  OFFSET_MOVED_TO_TIERED_STORAGE: {
    code: 109,
    retriable: false,
    message: 'The offset has moved to tiered storage.',
  },
  FENCED_MEMBER_EPOCH: {
    code: 110,
    retriable: false,
    message: 'The member epoch is fenced; the member must give up its partitions and rejoin.',
  },
  UNRELEASED_INSTANCE_ID: {
    code: 111,
    retriable: false,
    message: 'Another member still holds that group instance id.',
  },
  UNSUPPORTED_ASSIGNOR: {
    code: 112,
    retriable: false,
    message: 'The group does not support that assignor or assignor version.',
  },
  STALE_MEMBER_EPOCH: {
    code: 113,
    retriable: false,
    message: 'The member epoch is stale; retry after the next heartbeat response.',
  },
  MISMATCHED_ENDPOINT_TYPE: {
    code: 114,
    retriable: false,
    message: 'The request reached an endpoint of the wrong type.',
  },
  UNSUPPORTED_ENDPOINT_TYPE: {
    code: 115,
    retriable: false,
    message: 'That endpoint type is not supported.',
  },
  UNKNOWN_CONTROLLER_ID: { code: 116, retriable: false, message: 'That controller id is not known.' },
  UNKNOWN_SUBSCRIPTION_ID: {
    code: 117,
    retriable: false,
    message: 'The telemetry subscription id is unknown or out of date.',
  },
  TELEMETRY_TOO_LARGE: { code: 118, retriable: false, message: 'The telemetry payload is too large.' },
  INVALID_REGISTRATION: {
    code: 119,
    retriable: false,
    message: 'The controller rejected the broker registration.',
  },
  TRANSACTION_ABORTABLE: {
    code: 120,
    retriable: false,
    message: 'The transaction failed; abort it to keep using the transactional id.',
  },
  INVALID_RECORD_STATE: {
    code: 121,
    retriable: false,
    message: 'The record state does not allow that acknowledgement.',
  },
  SHARE_SESSION_NOT_FOUND: { code: 122, retriable: true, message: 'The share session does not exist.' },
  INVALID_SHARE_SESSION_EPOCH: {
    code: 123,
    retriable: true,
    message: 'The share session epoch is not the expected one.',
  },
  FENCED_STATE_EPOCH: {
    code: 124,
    retriable: false,
    message: 'The share group state epoch does not match.',
  },
  INVALID_VOTER_KEY: {
    code: 125,
    retriable: false,
    message: 'The voter key does not match the receiving replica.',
  },
  DUPLICATE_VOTER: { code: 126, retriable: false, message: 'The voter is already in the voter set.' },
  VOTER_NOT_FOUND: { code: 127, retriable: false, message: 'The voter is not in the voter set.' },
  INVALID_REGULAR_EXPRESSION: {
    code: 128,
    retriable: false,
    message: 'The regular expression is not valid.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The name of a Kafka error code, such as `'NOT_LEADER_OR_FOLLOWER'`. */
export type ErrorCodeName = keyof typeof errorDefinitions;

/**
 * Kafka's error codes by name, with literal number types: `ErrorCode.NOT_LEADER_OR_FOLLOWER` is `6`,
 * `ErrorCode.NONE` is `0`.
 */
export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.entries(errorDefinitions).map(([name, definition]) => [name, definition.code])),
) as { readonly [Name in ErrorCodeName]: (typeof errorDefinitions)[Name]['code'] };

/** One of Kafka's error code numbers (the union of every value of {@link ErrorCode}). */
export type ErrorCode = (typeof ErrorCode)[ErrorCodeName];

/** What the table knows about one error code. */
export interface ErrorCodeInfo {
  readonly code: ErrorCode;
  readonly name: ErrorCodeName;
  /**
   * True when a client may send the same request again and expect it to succeed, usually after a
   * backoff or a metadata refresh (Kafka's `RetriableException` subclasses).
   */
  readonly retriable: boolean;
  /** A one-sentence description for people (logs, the console). Never parse or compare it. */
  readonly message: string;
}

/** Every known error code, sorted by number. */
export const errorCodeTable: readonly ErrorCodeInfo[] = Object.freeze(
  (Object.entries(errorDefinitions) as [ErrorCodeName, ErrorDefinition][])
    .map(([name, definition]) =>
      Object.freeze({
        code: definition.code as ErrorCode,
        name,
        retriable: definition.retriable,
        message: definition.message,
      }),
    )
    .sort((left, right) => left.code - right.code),
);

// A Map keyed by number keeps the reverse lookup O(1); the codes are dense today, but nothing
// guarantees Kafka keeps them that way.
const infoByCode: ReadonlyMap<number, ErrorCodeInfo> = new Map(
  errorCodeTable.map((info) => [info.code, info]),
);

/** The table entry for a code number, or `undefined` when the number is not a known Kafka code. */
export function errorCodeInfo(code: number): ErrorCodeInfo | undefined {
  return infoByCode.get(code);
}

/** True when `code` is one of the numbers in the table. */
export function isKnownErrorCode(code: number): code is ErrorCode {
  return infoByCode.has(code);
}
