import { ErrorCode } from '../../errors/error-codes';
import { errorForCode } from '../../errors/weir-error';
import { DescribeProducers } from '../../messages/apis/describe-producers';
import { DescribeTransactions } from '../../messages/apis/describe-transactions';
import { ListTransactions } from '../../messages/apis/list-transactions';
import type { Client } from '../client';
import { findTransactionCoordinator } from '../group/coordinator';

/** A transactional id as ListTransactions reports it. */
export interface TransactionListing {
  readonly transactionalId: string;
  readonly producerId: bigint;
  /**
   * Kafka's state name, one of TRANSACTIONAL_ID_STATES (transactional-id-state.ts) from a Weir
   * broker; a string, because it is what the broker sent.
   */
  readonly state: string;
}

/** The coordinator's view of one transactional id (DescribeTransactions). */
export interface TransactionDescription {
  readonly transactionalId: string;
  readonly state: string;
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly timeoutMs: number;
  /** When the ongoing transaction began; -1n when none is ongoing. */
  readonly startTimeMs: bigint;
  readonly partitions: readonly { readonly topic: string; readonly partition: number }[];
}

/** A producer with state on a partition (DescribeProducers). */
export interface PartitionProducer {
  readonly topic: string;
  readonly partition: number;
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly lastSequence: number;
  readonly lastTimestampMs: bigint;
  /** The first offset of the producer's open transaction on the partition; -1n when none is open. */
  readonly currentTransactionStartOffset: bigint;
}

export interface TransactionListFilters {
  /** Kafka state names; empty or absent matches every state. */
  readonly states?: readonly string[];
  readonly producerIds?: readonly bigint[];
}

/** Every transactional id the cluster's coordinators know, filtered (ListTransactions). */
export async function listTransactions(
  client: Client,
  filters: TransactionListFilters = {},
): Promise<TransactionListing[]> {
  const response = await client.retry(() =>
    client.send('any', ListTransactions, {
      stateFilters: [...(filters.states ?? [])],
      producerIdFilters: [...(filters.producerIds ?? [])],
    }),
  );
  if (response.errorCode !== ErrorCode.NONE) throw errorForCode(response.errorCode, 'Listing transactions.');
  return response.transactionStates
    .map((entry) => ({
      transactionalId: entry.transactionalId,
      producerId: entry.producerId,
      state: entry.transactionState,
    }))
    .sort((a, b) =>
      a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0,
    );
}

/** The coordinator's state of each transactional id; throws for an unknown one. */
export async function describeTransactions(
  client: Client,
  transactionalIds: readonly string[],
): Promise<TransactionDescription[]> {
  return Promise.all(
    transactionalIds.map(async (transactionalId) => {
      const coordinator = await findTransactionCoordinator(client, transactionalId);
      const response = await client.retry(() =>
        client.send(coordinator.nodeId, DescribeTransactions, { transactionalIds: [transactionalId] }),
      );
      const state = response.transactionStates[0];
      if (state === undefined)
        throw errorForCode(
          ErrorCode.UNKNOWN_SERVER_ERROR,
          `No answer for transactional id "${transactionalId}".`,
        );
      if (state.errorCode !== ErrorCode.NONE)
        throw errorForCode(state.errorCode, `Transactional id "${transactionalId}".`);
      return {
        transactionalId,
        state: state.transactionState,
        producerId: state.producerId,
        producerEpoch: state.producerEpoch,
        timeoutMs: state.transactionTimeoutMs,
        startTimeMs: state.transactionStartTimeMs,
        partitions: state.topics.flatMap((topic) =>
          topic.partitions.map((partition) => ({ topic: topic.topic, partition })),
        ),
      };
    }),
  );
}

/** The producers with state on every partition of `topic` (or the listed ones), from their leader. */
export async function describeProducers(
  client: Client,
  topic: string,
  partitions?: readonly number[],
): Promise<PartitionProducer[]> {
  const metadata = await client.topic(topic);
  const wanted = partitions ?? metadata.partitions.map((entry) => entry.partition);
  const byLeader = new Map<number, number[]>();
  for (const partition of wanted) {
    const leaderId = metadata.partitions[partition]?.leaderId;
    if (leaderId === undefined || leaderId < 0)
      throw errorForCode(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `${topic}-${partition}.`);
    byLeader.set(leaderId, [...(byLeader.get(leaderId) ?? []), partition]);
  }
  const answers = await Promise.all(
    [...byLeader].map(([leaderId, list]) =>
      client.retry(() =>
        client.send(leaderId, DescribeProducers, { topics: [{ name: topic, partitionIndexes: list }] }),
      ),
    ),
  );
  const producers: PartitionProducer[] = [];
  for (const answer of answers) {
    for (const entry of answer.topics) {
      for (const partition of entry.partitions) {
        if (partition.errorCode !== ErrorCode.NONE)
          throw errorForCode(partition.errorCode, `${entry.name}-${partition.partitionIndex}.`);
        for (const producer of partition.activeProducers) {
          producers.push({
            topic: entry.name,
            partition: partition.partitionIndex,
            producerId: producer.producerId,
            producerEpoch: producer.producerEpoch,
            lastSequence: producer.lastSequence,
            lastTimestampMs: producer.lastTimestamp,
            currentTransactionStartOffset: producer.currentTxnStartOffset,
          });
        }
      }
    }
  }
  return producers.sort((a, b) => a.partition - b.partition || Number(a.producerId - b.producerId));
}
