import { randomBytes } from 'node:crypto';
import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import { AlterPartitionReassignments } from '../../messages/apis/alter-partition-reassignments';
import { WeirAbortTransaction } from '../../messages/apis/internal/weir-abort-transaction';
import { WeirDeleteUser } from '../../messages/apis/internal/weir-delete-user';
import { WeirDescribeBroker } from '../../messages/apis/internal/weir-describe-broker';
import { WeirDescribeEffectivePermissions } from '../../messages/apis/internal/weir-describe-effective-permissions';
import { WeirDescribeGroupLags } from '../../messages/apis/internal/weir-describe-group-lags';
import { WeirDescribeLagHistory } from '../../messages/apis/internal/weir-describe-lag-history';
import { WeirDescribeLogCleaner } from '../../messages/apis/internal/weir-describe-log-cleaner';
import { WeirDescribePartitions } from '../../messages/apis/internal/weir-describe-partitions';
import { WeirDescribeReplication } from '../../messages/apis/internal/weir-describe-replication';
import { WeirDescribeThroughputHistory } from '../../messages/apis/internal/weir-describe-throughput-history';
import { WeirListAuditEvents } from '../../messages/apis/internal/weir-list-audit-events';
import { WeirListClusterEvents } from '../../messages/apis/internal/weir-list-cluster-events';
import { WeirListTopicSummaries } from '../../messages/apis/internal/weir-list-topic-summaries';
import { WeirListUsers } from '../../messages/apis/internal/weir-list-users';
import { WeirScanRecords } from '../../messages/apis/internal/weir-scan-records';
import { WeirUpsertUser } from '../../messages/apis/internal/weir-upsert-user';
import { WeirVerifyCredentials } from '../../messages/apis/internal/weir-verify-credentials';
import { ListPartitionReassignments } from '../../messages/apis/list-partition-reassignments';
import type { ApiSchema, RequestOf, ResponseOf } from '../../schema/api';
import { type AdminItemFailure, AdminItemsError, brokerError } from '../admin-error';
import { scramSaltedPassword } from '../auth/scram';
import { isScramMechanism } from '../auth/scram-mechanisms';
import type { Client } from '../client';
import { auditEventFrom, auditQueryBody } from './audit-event-conversions';
import type { AuditEventPage, AuditEventQuery } from './audit-event-types';
import type { ClusterEvent, ClusterEventKind, ClusterEventQuery } from './cluster-event-types';
import { effectivePermissionsFrom } from './effective-permission-conversions';
import type { EffectivePermissions, EffectivePermissionsApi } from './effective-permission-types';
import type { GroupLagHistory, HistoryAnswer, TopicThroughputHistory } from './history-types';
import { historyValues } from './history-values';
import {
  groupLagFrom,
  overviewFrom,
  partitionFrom,
  scanBody,
  scanResultFrom,
  topicPageFrom,
  topicQueryBody,
} from './internal-admin-conversions';
import type {
  BrokerOverview,
  GroupLagSummary,
  InternalAdminApi,
  PartitionInternals,
  ScanRecordsRequest,
  ScanRecordsResult,
  TopicListPage,
  TopicListQuery,
} from './internal-admin-types';
import { logCleanerRowsFrom } from './log-cleaner-conversions';
import type { LogCleanerPartitionState } from './log-cleaner-types';
import type { PartitionMove, PartitionMoveResult, PartitionReassignment } from './reassignment-types';
import type { LedPartitionReplication } from './replication-types';
import type {
  CredentialCheck,
  UpsertUserRequest,
  UserAdminApi,
  UserDescription,
  UserScramMechanism,
} from './user-admin-types';

/** Salt bytes of a credential the SDK derives; the broker keeps whatever salt it is given. */
const SALT_BYTES = 32;
/** The broker's default iterations, used here to derive when the caller does not choose. */
const DEFAULT_ITERATIONS = 8192;

/** A response of a Weir-only API: each has a top-level error. */
interface TopLevelAnswer {
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

/**
 * The internal listener's Weir-only calls (WeirDescribeBroker and the others, keys 32000 and up)
 * for the admin gateway. The client must be connected to an internal listener (authenticated with
 * `sasl`); a client listener closes the connection on these keys. Each call goes to any broker of
 * the client, is retried on retriable codes (COORDINATOR_LOAD_IN_PROGRESS, network errors) like
 * every client request, and fails with a {@link WeirError} carrying the broker's code. Calls whose
 * answer has rows (partitions, groups, scanned partitions) fail with an {@link AdminItemsError}
 * when any row carries an error. The admin does not own the client.
 */
export class InternalAdmin implements InternalAdminApi, UserAdminApi, EffectivePermissionsApi {
  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  async listClusterEvents(query: ClusterEventQuery): Promise<ClusterEvent[]> {
    const response = await this.#call(
      WeirListClusterEvents,
      {
        sinceMs: BigInt(query.sinceMs ?? -1),
        untilMs: BigInt(query.untilMs ?? -1),
        topic: query.topic ?? null,
        partition: query.partition ?? -1,
        brokerId: query.brokerId ?? -1,
        limit: query.limit,
      },
      'Listing cluster events.',
    );
    return response.events.map(clusterEventFrom);
  }

  async listAuditEvents(query: AuditEventQuery): Promise<AuditEventPage> {
    const response = await this.#call(WeirListAuditEvents, auditQueryBody(query), 'Listing audit events.');
    const events = response.events.map(auditEventFrom);
    return response.nextBeforeId === null ? { events } : { events, nextBeforeId: response.nextBeforeId };
  }

  async describeLagHistory(
    groupIds: readonly string[],
    options: { sinceMs: number; includePartitions?: boolean },
  ): Promise<HistoryAnswer<GroupLagHistory>> {
    const response = await this.#call(
      WeirDescribeLagHistory,
      {
        groupIds: [...groupIds],
        sinceMs: BigInt(Math.floor(options.sinceMs)),
        includePartitions: options.includePartitions ?? false,
      },
      'Describing lag history.',
    );
    throwRowFailures(
      'Describing lag history',
      response.groups.map((row) => ({
        item: `Group "${row.groupId}"`,
        errorCode: row.errorCode,
        errorMessage: null,
      })),
    );
    return {
      sampleIntervalMs: response.sampleIntervalMs,
      rows: response.groups.map((row) => ({
        groupId: row.groupId,
        resolutionMs: row.resolutionMs,
        startMs: Number(row.startMs),
        totalLag: historyValues(row.totalLag),
        consumedPerSecond: historyValues(row.consumedPerSecond),
        producedPerSecond: historyValues(row.producedPerSecond),
        partitions: row.partitions.map((partition) => ({
          topic: partition.topic,
          partition: partition.partition,
          lag: historyValues(partition.lag),
        })),
      })),
    };
  }

  async describeThroughputHistory(
    topics: readonly string[],
    options: { sinceMs: number },
  ): Promise<HistoryAnswer<TopicThroughputHistory>> {
    const response = await this.#call(
      WeirDescribeThroughputHistory,
      { topics: [...topics], sinceMs: BigInt(Math.floor(options.sinceMs)) },
      'Describing throughput history.',
    );
    throwRowFailures(
      'Describing throughput history',
      response.topics.map((row) => ({
        item: `Topic "${row.topic}"`,
        errorCode: row.errorCode,
        errorMessage: null,
      })),
    );
    return {
      sampleIntervalMs: response.sampleIntervalMs,
      rows: response.topics.map((row) => ({
        topic: row.topic,
        resolutionMs: row.resolutionMs,
        startMs: Number(row.startMs),
        recordsInPerSecond: historyValues(row.recordsInPerSecond),
        recordsOutPerSecond: historyValues(row.recordsOutPerSecond),
        bytesInPerSecond: historyValues(row.bytesInPerSecond),
        bytesOutPerSecond: historyValues(row.bytesOutPerSecond),
      })),
    };
  }

  async describeReplication(topics?: readonly string[]): Promise<LedPartitionReplication[]> {
    const response = await this.#call(
      WeirDescribeReplication,
      { topics: topics === undefined ? null : [...topics] },
      'Describing replication.',
    );
    return response.partitions.map((row) => ({
      topic: row.topic,
      partition: row.partition,
      leaderEpoch: row.leaderEpoch,
      replicas: row.replicas,
      isr: row.isr,
      minInsyncReplicas: row.minInsyncReplicas,
      highWatermark: row.highWatermark,
      logEndOffset: row.logEndOffset,
      isrChangedAtMs: row.isrChangedAtMs < 0n ? null : Number(row.isrChangedAtMs),
      leaderChangedAtMs: row.leaderChangedAtMs < 0n ? null : Number(row.leaderChangedAtMs),
      followers: row.followers.map((follower) => ({
        brokerId: follower.brokerId,
        logEndOffset: follower.logEndOffset,
        lagRecords: follower.lagRecords,
        lagMs: Number(follower.lagMs),
      })),
    }));
  }

  /**
   * Starts, replaces or cancels partition moves (AlterPartitionReassignments); resolves with each
   * partition's answer once the changes are stored, while the moves themselves run on.
   */
  async alterPartitionReassignments(
    moves: readonly PartitionMove[],
    options: { timeoutMs?: number } = {},
  ): Promise<PartitionMoveResult[]> {
    const byTopic = new Map<string, PartitionMove[]>();
    for (const move of moves) byTopic.set(move.topic, [...(byTopic.get(move.topic) ?? []), move]);
    const timeoutMs = options.timeoutMs ?? 60_000;
    const response = await this.#call(
      AlterPartitionReassignments,
      {
        timeoutMs,
        topics: [...byTopic].map(([name, partitions]) => ({
          name,
          partitions: partitions.map((move) => ({
            partitionIndex: move.partition,
            replicas: move.replicas === null ? null : [...move.replicas],
          })),
        })),
      },
      'Altering partition reassignments.',
      { timeoutMs: timeoutMs + 5_000 },
    );
    return response.responses.flatMap((topic) =>
      topic.partitions.map((row) => ({
        topic: topic.name,
        partition: row.partitionIndex,
        errorCode: row.errorCode,
        errorMessage: row.errorMessage,
      })),
    );
  }

  /** The moves in progress (ListPartitionReassignments), of every partition or of the named ones. */
  async listPartitionReassignments(
    partitions?: readonly { topic: string; partition: number }[],
  ): Promise<PartitionReassignment[]> {
    const byTopic = new Map<string, number[]>();
    for (const { topic, partition } of partitions ?? [])
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
    const response = await this.#call(
      ListPartitionReassignments,
      {
        timeoutMs: 30_000,
        topics:
          partitions === undefined
            ? null
            : [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
      },
      'Listing partition reassignments.',
    );
    return response.topics.flatMap((topic) =>
      topic.partitions.map((row) => ({
        topic: topic.name,
        partition: row.partitionIndex,
        replicas: row.replicas,
        addingReplicas: row.addingReplicas,
        removingReplicas: row.removingReplicas,
      })),
    );
  }

  async describeLogCleaner(topics?: readonly string[]): Promise<LogCleanerPartitionState[]> {
    const response = await this.#call(
      WeirDescribeLogCleaner,
      { topics: topics === undefined ? null : [...topics] },
      'Describing the log cleaner.',
    );
    return logCleanerRowsFrom(response);
  }

  async describeBroker(): Promise<BrokerOverview> {
    return overviewFrom(await this.#call(WeirDescribeBroker, {}, 'Describing the broker.'));
  }

  async listTopicSummaries(query: TopicListQuery): Promise<TopicListPage> {
    return topicPageFrom(
      await this.#call(WeirListTopicSummaries, topicQueryBody(query), 'Listing topic summaries.'),
    );
  }

  async describePartitions(topic: string): Promise<PartitionInternals[]> {
    const response = await this.#call(WeirDescribePartitions, { topic }, `Topic "${topic}".`);
    throwRowFailures(
      'describePartitions',
      response.partitions.map((row) => ({
        item: `${topic}-${row.partitionIndex}`,
        errorCode: row.errorCode,
        errorMessage: null,
      })),
    );
    return response.partitions.map(partitionFrom);
  }

  async describeGroupLags(groupIds: readonly string[] | null): Promise<GroupLagSummary[]> {
    const response = await this.#call(
      WeirDescribeGroupLags,
      { groupIds: groupIds === null ? null : [...groupIds] },
      'Describing group lags.',
    );
    throwRowFailures(
      'describeGroupLags',
      response.groups.map((row) => ({ item: row.groupId, errorCode: row.errorCode, errorMessage: null })),
    );
    return response.groups.map(groupLagFrom);
  }

  async scanRecords(request: ScanRecordsRequest): Promise<ScanRecordsResult> {
    const response = await this.#call(WeirScanRecords, scanBody(request), `Topic "${request.topic}".`, {
      // The broker answers within maxScanMs; the client's own deadline comes on top of it.
      timeoutMs: this.#client.requestTimeoutMs + request.maxScanMs,
    });
    throwRowFailures(
      'scanRecords',
      response.partitions.map((row) => ({
        item: `${request.topic}-${row.partitionIndex}`,
        errorCode: row.errorCode,
        errorMessage: null,
      })),
    );
    return scanResultFrom(response);
  }

  async abortTransaction(transactionalId: string, reason: string): Promise<void> {
    await this.#call(
      WeirAbortTransaction,
      { transactionalId, reason },
      `Transactional id "${transactionalId}".`,
    );
  }

  async listUsers(usernames?: readonly string[]): Promise<UserDescription[]> {
    const response = await this.#call(
      WeirListUsers,
      { usernames: usernames === undefined ? null : [...usernames] },
      'Listing users.',
    );
    return response.users.map((user) => ({
      name: user.name,
      credentials: user.credentials.map((credential) => ({
        mechanism: credential.mechanism as UserScramMechanism,
        iterations: credential.iterations,
      })),
      credentialFingerprint: user.credentialFingerprint,
    }));
  }

  async upsertUser(request: UpsertUserRequest): Promise<void> {
    if (!isScramMechanism(request.mechanism)) {
      throw new WeirError(ErrorCode.UNSUPPORTED_SASL_MECHANISM, {
        detail: `users have SCRAM-SHA-256 or SCRAM-SHA-512 credentials, not "${request.mechanism}".`,
      });
    }
    const iterations = request.iterations ?? DEFAULT_ITERATIONS;
    const salt = randomBytes(SALT_BYTES);
    const saltedPassword = await scramSaltedPassword(request.mechanism, request.password, salt, iterations);
    await this.#call(
      WeirUpsertUser,
      {
        username: request.username,
        mechanism: request.mechanism,
        iterations,
        password: null,
        salt,
        saltedPassword,
      },
      `User "${request.username}".`,
    );
  }

  async deleteUser(username: string, mechanism?: UserScramMechanism): Promise<void> {
    await this.#call(WeirDeleteUser, { username, mechanism: mechanism ?? null }, `User "${username}".`);
  }

  async verifyCredentials(
    username: string,
    password: string,
    remoteAddress?: string,
  ): Promise<CredentialCheck> {
    try {
      const response = await this.#call(
        WeirVerifyCredentials,
        { username, password, remoteAddress: remoteAddress ?? null },
        'Checking credentials.',
      );
      return {
        ok: true,
        principal: response.principal ?? `User:${username}`,
        credentialFingerprint: response.credentialFingerprint,
      };
    } catch (error) {
      if (error instanceof WeirError && error.code === ErrorCode.SASL_AUTHENTICATION_FAILED)
        return { ok: false };
      throw error;
    }
  }

  async describeEffectivePermissions(principal: string, host = '*'): Promise<EffectivePermissions> {
    const response = await this.#call(
      WeirDescribeEffectivePermissions,
      { principal, host },
      `Effective permissions of "${principal}".`,
    );
    return effectivePermissionsFrom(response);
  }

  /**
   * Sends to any broker under the client's retry policy and throws a top-level error. Retriable
   * codes are retried except UNKNOWN_TOPIC_OR_PARTITION: Kafka marks it retriable because a
   * client's metadata may be stale, but here the broker answers from its own catalogue, so asking
   * again would only wait for the retry bounds before failing the same way.
   */
  async #call<A extends ApiSchema>(
    api: A,
    body: RequestOf<A>,
    context: string,
    options: { timeoutMs?: number } = {},
  ): Promise<ResponseOf<A>> {
    const response = await this.#client.retry(async () => {
      const answer = (await this.#client.send('any', api, body, options)) as ResponseOf<A> & TopLevelAnswer;
      const error =
        answer.errorCode === ErrorCode.NONE
          ? undefined
          : brokerError(answer.errorCode, answer.errorMessage, context);
      if (error?.retriable && error.code !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) throw error;
      return answer;
    });
    if (response.errorCode !== ErrorCode.NONE)
      throw brokerError(response.errorCode, response.errorMessage, context);
    return response;
  }
}

/** Throws an {@link AdminItemsError} naming every row that carries an error. */
function throwRowFailures(
  operation: string,
  rows: readonly { item: string; errorCode: number; errorMessage: string | null }[],
): void {
  const failures: AdminItemFailure[] = rows
    .filter((row) => row.errorCode !== ErrorCode.NONE)
    .map((row) => ({ item: row.item, error: brokerError(row.errorCode, row.errorMessage, `${row.item}.`) }));
  if (failures.length > 0) throw new AdminItemsError(operation, failures, rows.length);
}

/** An event off the wire: -1 and null stand for fields the event does not have. */
function clusterEventFrom(row: ResponseOf<typeof WeirListClusterEvents>['events'][number]): ClusterEvent {
  const number = (value: number) => (value < 0 ? undefined : value);
  const fields = {
    topic: row.topic ?? undefined,
    partition: number(row.partition),
    brokerId: number(row.brokerId),
    leader: row.kind === 'partition-offline' ? -1 : number(row.leader),
    previousLeader: number(row.previousLeader),
    leaderEpoch: number(row.leaderEpoch),
    isr: row.isr ?? undefined,
    previousIsr: row.previousIsr ?? undefined,
    cause: row.cause ?? undefined,
    sessionId: row.sessionId ?? undefined,
    detail: row.detail ?? undefined,
  };
  const event: ClusterEvent = { id: row.id, atMs: Number(row.atMs), kind: row.kind as ClusterEventKind };
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) (event as unknown as Record<string, unknown>)[name] = value;
  }
  return event;
}
