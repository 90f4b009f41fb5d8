import type {
  Admin,
  InternalAdminApi,
  PartitionInternals,
  PartitionProducer,
  TransactionDescription,
} from '@weir/protocol';
import { CLUSTER_RESOURCE_NAME, ErrorCode } from '@weir/protocol';
import { asKafkaError } from '../api/error-shapes';
import type { ActionPermissionView } from '../api/schemas/common';
import {
  type AbortTransactionInput,
  type AbortTransactionResult,
  OPEN_TRANSACTION_STATES,
  type TopicProducers,
  type TransactionDetail,
  type TransactionList,
  type TransactionListInput,
  type TransactionPartition,
  type TransactionRow,
} from '../api/schemas/transactions';
import { type AclPolicyView, withAcls } from './permissions/acl-policy';
import { ALLOWED, denied } from './permissions/action-permission';

/*
 * The transactions inspector. The coordinator answers what each transactional id is doing
 * (ListTransactions, DescribeTransactions); partition leaders answer which producers hold state
 * there and where their open transactions begin (DescribeProducers); the internal listener answers
 * each partition's last stable offset. Nothing is cached: every call reads the broker.
 */

type TransactionAdmin = Pick<Admin, 'listTransactions' | 'describeTransactions' | 'describeProducers'>;

/** Whether a transaction is open and, if so, since when and for how long. */
function ageOf(description: TransactionDescription, asOfMs: number) {
  const open = OPEN_TRANSACTION_STATES.has(description.state);
  const startTimeMs = open && description.startTimeMs >= 0n ? Number(description.startTimeMs) : null;
  const ageMs = startTimeMs === null ? null : Math.max(0, asOfMs - startTimeMs);
  return { open, startTimeMs, ageMs, hanging: ageMs !== null && ageMs > description.timeoutMs };
}

export function toTransactionRow(description: TransactionDescription, asOfMs: number): TransactionRow {
  return {
    transactionalId: description.transactionalId,
    producerId: description.producerId.toString(),
    producerEpoch: description.producerEpoch,
    state: description.state,
    ...ageOf(description, asOfMs),
    timeoutMs: description.timeoutMs,
    partitionCount: description.partitions.length,
    topics: [...new Set(description.partitions.map((partition) => partition.topic))].sort(),
  };
}

/**
 * Describes ids one by one, so that an id that expired between listing and describing drops out
 * instead of failing the whole list.
 */
async function describeListed(
  admin: TransactionAdmin,
  transactionalIds: readonly string[],
): Promise<TransactionDescription[]> {
  const described = await Promise.all(
    transactionalIds.map(async (transactionalId) => {
      try {
        return (await admin.describeTransactions([transactionalId]))[0];
      } catch (error) {
        if (asKafkaError(error)?.originalCode === ErrorCode.TRANSACTIONAL_ID_NOT_FOUND) return undefined;
        throw error;
      }
    }),
  );
  return described.filter((entry): entry is TransactionDescription => entry !== undefined);
}

const byId = (left: TransactionRow, right: TransactionRow) =>
  left.transactionalId < right.transactionalId ? -1 : left.transactionalId > right.transactionalId ? 1 : 0;

function compareRows(
  sortBy: TransactionListInput['sortBy'],
): (a: TransactionRow, b: TransactionRow) => number {
  const key: Record<TransactionListInput['sortBy'], (a: TransactionRow, b: TransactionRow) => number> = {
    // Transactions that are not open have no age and sort below every open one.
    age: (a, b) => (a.ageMs ?? -1) - (b.ageMs ?? -1),
    id: () => 0,
    state: (a, b) => a.state.localeCompare(b.state),
    partitions: (a, b) => a.partitionCount - b.partitionCount,
  };
  // Ties are broken by transactional id (always ascending) so that paging is stable.
  return (a, b) => key[sortBy](a, b);
}

export async function listTransactions(
  admin: TransactionAdmin,
  input: TransactionListInput,
  now: () => number,
): Promise<TransactionList> {
  const listed = await admin.listTransactions();
  const described = await describeListed(
    admin,
    listed.map((entry) => entry.transactionalId),
  );
  const asOfMs = now();
  const rows = described.map((description) => toTransactionRow(description, asOfMs));
  const stateCounts: Record<string, number> = {};
  for (const row of rows) stateCounts[row.state] = (stateCounts[row.state] ?? 0) + 1;
  const search = input.search?.toLowerCase();
  const descending = input.descending ?? input.sortBy === 'age';
  const compare = compareRows(input.sortBy);
  const matching = rows
    .filter((row) => search === undefined || row.transactionalId.toLowerCase().includes(search))
    .filter((row) => input.state === undefined || row.state === input.state)
    .filter((row) => !input.openOnly || row.open)
    .filter((row) => !input.hangingOnly || row.hanging)
    .sort((a, b) => (descending ? compare(b, a) : compare(a, b)) || byId(a, b));
  return {
    asOfMs,
    totalCount: matching.length,
    stateCounts,
    openCount: rows.filter((row) => row.open).length,
    hangingCount: rows.filter((row) => row.hanging).length,
    transactions: matching.slice(input.offset, input.offset + input.limit),
  };
}

/** HWM − LSO as a decimal string (never negative). */
function gapOf(partition: Pick<PartitionInternals, 'highWatermark' | 'lastStableOffset'>): string {
  const gap = partition.highWatermark - partition.lastStableOffset;
  return (gap > 0n ? gap : 0n).toString();
}

interface TopicState {
  readonly producers: readonly PartitionProducer[];
  readonly partitions: readonly PartitionInternals[];
}

/** A topic's producers and partition offsets; null when the topic cannot be read (deleted, offline). */
async function readTopicState(
  admin: TransactionAdmin,
  internal: Pick<InternalAdminApi, 'describePartitions'>,
  topic: string,
  partitions: readonly number[],
): Promise<TopicState | null> {
  try {
    const [producers, internals] = await Promise.all([
      admin.describeProducers(topic, partitions),
      internal.describePartitions(topic),
    ]);
    // A partition without a reachable leader (offline, on a cluster) has no offsets to show.
    return { producers, partitions: internals.filter((partition) => partition.highWatermark >= 0n) };
  } catch (error) {
    if (asKafkaError(error) === null) throw error;
    return null;
  }
}

/**
 * Only an open transaction can be aborted; in login mode the principal also needs what the broker
 * checks for WeirAbortTransaction: WRITE on the transactional id and ALTER on the cluster.
 */
function abortPermission(row: TransactionRow, acl?: AclPolicyView | null): ActionPermissionView {
  const state = row.open
    ? ALLOWED
    : denied(`Only an open transaction can be aborted; this one is ${row.state}.`);
  return withAcls(state, acl, [
    ['WRITE', 'TRANSACTIONAL_ID', row.transactionalId],
    ['ALTER', 'CLUSTER', CLUSTER_RESOURCE_NAME],
  ]);
}

export async function describeTransaction(
  admin: TransactionAdmin,
  internal: Pick<InternalAdminApi, 'describePartitions'>,
  transactionalId: string,
  now: () => number,
  acl?: AclPolicyView | null,
): Promise<TransactionDetail> {
  const [description] = await admin.describeTransactions([transactionalId]);
  const view = description!;
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of view.partitions) {
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  }
  const states = new Map(
    await Promise.all(
      [...byTopic].map(
        async ([topic, partitions]) =>
          [topic, await readTopicState(admin, internal, topic, partitions)] as const,
      ),
    ),
  );
  const asOfMs = now();
  const row = toTransactionRow(view, asOfMs);
  const partitions: TransactionPartition[] = [...view.partitions]
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
    .map(({ topic, partition }) => {
      const state = states.get(topic) ?? null;
      const producer = state?.producers.find(
        (entry) => entry.partition === partition && entry.producerId === view.producerId,
      );
      const offsets = state?.partitions.find((entry) => entry.partition === partition);
      const firstOffset =
        producer !== undefined && producer.currentTransactionStartOffset >= 0n
          ? producer.currentTransactionStartOffset
          : null;
      return {
        topic,
        partition,
        firstOffset: firstOffset === null ? null : firstOffset.toString(),
        lastSequence: producer?.lastSequence ?? null,
        lastTimestampMs: producer === undefined ? null : Number(producer.lastTimestampMs),
        lastStableOffset: offsets === undefined ? null : offsets.lastStableOffset.toString(),
        highWatermark: offsets === undefined ? null : offsets.highWatermark.toString(),
        gap: offsets === undefined ? null : gapOf(offsets),
        holdsStableOffset:
          firstOffset !== null && offsets !== undefined && offsets.lastStableOffset === firstOffset,
      };
    });
  return { ...row, asOfMs, partitions, allowedActions: { abort: abortPermission(row, acl) } };
}

/**
 * The operator's abort: the broker bumps the producer's epoch (fencing it), writes ABORT markers
 * and logs the console's principal with the reason. The answer carries the state read afterwards.
 */
export async function abortTransaction(
  admin: Pick<Admin, 'describeTransactions'>,
  internal: Pick<InternalAdminApi, 'abortTransaction'>,
  input: AbortTransactionInput,
  now: () => number,
): Promise<AbortTransactionResult> {
  await internal.abortTransaction(input.transactionalId, input.reason);
  const [after] = await admin.describeTransactions([input.transactionalId]);
  return {
    asOfMs: now(),
    transactionalId: input.transactionalId,
    aborted: true,
    state: after!.state,
    producerEpoch: after!.producerEpoch,
  };
}

/** Producers with state on each partition of a topic, with each partition's LSO–HWM gap. */
export async function describeTopicProducers(
  admin: TransactionAdmin,
  internal: Pick<InternalAdminApi, 'describePartitions'>,
  topic: string,
  now: () => number,
): Promise<TopicProducers> {
  const [partitions, producers, listed] = await Promise.all([
    internal.describePartitions(topic),
    admin.describeProducers(topic),
    admin.listTransactions(),
  ]);
  const transactionalIds = new Map(listed.map((entry) => [entry.producerId, entry.transactionalId]));
  return {
    asOfMs: now(),
    topic,
    // A partition without a reachable leader (offline, on a cluster) has no offsets to show.
    partitions: partitions
      .filter((partition) => partition.highWatermark >= 0n)
      .map((partition) => ({
        partition: partition.partition,
        lastStableOffset: partition.lastStableOffset.toString(),
        highWatermark: partition.highWatermark.toString(),
        gap: gapOf(partition),
        producers: producers
          .filter((producer) => producer.partition === partition.partition)
          .map((producer) => ({
            producerId: producer.producerId.toString(),
            producerEpoch: producer.producerEpoch,
            lastSequence: producer.lastSequence,
            lastTimestampMs: Number(producer.lastTimestampMs),
            openTransactionFirstOffset:
              producer.currentTransactionStartOffset >= 0n
                ? producer.currentTransactionStartOffset.toString()
                : null,
            transactionalId: transactionalIds.get(producer.producerId) ?? null,
          })),
      })),
  };
}
