import { ErrorCode } from '../../errors/error-codes';
import { errorForCode } from '../../errors/weir-error';
import { AddOffsetsToTxn } from '../../messages/apis/add-offsets-to-txn';
import { AddPartitionsToTxn } from '../../messages/apis/add-partitions-to-txn';
import { EndTxn } from '../../messages/apis/end-txn';
import { InitProducerId } from '../../messages/apis/init-producer-id';
import { TxnOffsetCommit } from '../../messages/apis/txn-offset-commit';
import type { CoordinatorSend, OffsetToCommit } from '../group/group-offsets';
import type { ProducerIdentity } from '../producer-batch';

/** Codes that end the producer: another instance owns the transactional id now. */
export function isFencingCode(code: number): boolean {
  return code === ErrorCode.INVALID_PRODUCER_EPOCH || code === ErrorCode.PRODUCER_FENCED;
}

/** InitProducerId with a transactional id: the producer id and a new epoch (fencing older ones). */
export async function initTransactionalId(
  send: CoordinatorSend,
  transactionalId: string,
  transactionTimeoutMs: number,
): Promise<ProducerIdentity> {
  const response = await send(InitProducerId, { transactionalId, transactionTimeoutMs });
  if (response.errorCode !== ErrorCode.NONE)
    throw errorForCode(response.errorCode, `Initializing transactional id "${transactionalId}".`);
  return { producerId: response.producerId, producerEpoch: response.producerEpoch };
}

/** Adds partitions to the ongoing transaction; throws the first partition's error. */
export async function addPartitionsToTransaction(
  send: CoordinatorSend,
  transactionalId: string,
  identity: ProducerIdentity,
  partitions: ReadonlyMap<string, readonly number[]>,
): Promise<void> {
  const response = await send(AddPartitionsToTxn, {
    v3AndBelowTransactionalId: transactionalId,
    v3AndBelowProducerId: identity.producerId,
    v3AndBelowProducerEpoch: identity.producerEpoch,
    v3AndBelowTopics: [...partitions].map(([name, list]) => ({ name, partitions: [...list] })),
  });
  for (const topic of response.resultsByTopicV3AndBelow) {
    for (const result of topic.resultsByPartition) {
      if (result.partitionErrorCode === ErrorCode.NONE) continue;
      // OPERATION_NOT_ATTEMPTED marks partitions held back because another one failed.
      if (result.partitionErrorCode === ErrorCode.OPERATION_NOT_ATTEMPTED) continue;
      throw errorForCode(
        result.partitionErrorCode,
        `Adding ${topic.name}-${result.partitionIndex} to transaction "${transactionalId}".`,
      );
    }
  }
}

/** Makes the group's offsets part of the transaction (the step before TxnOffsetCommit). */
export async function addOffsetsToTransaction(
  send: CoordinatorSend,
  transactionalId: string,
  identity: ProducerIdentity,
  groupId: string,
): Promise<void> {
  const response = await send(AddOffsetsToTxn, {
    transactionalId,
    producerId: identity.producerId,
    producerEpoch: identity.producerEpoch,
    groupId,
  });
  if (response.errorCode !== ErrorCode.NONE)
    throw errorForCode(response.errorCode, `Adding group "${groupId}" to transaction "${transactionalId}".`);
}

/** Stages offsets at the group coordinator; they count once the transaction commits. */
export async function commitTransactionalOffsets(
  send: CoordinatorSend,
  transactionalId: string,
  identity: ProducerIdentity,
  groupId: string,
  offsets: readonly OffsetToCommit[],
): Promise<void> {
  const byTopic = new Map<string, OffsetToCommit[]>();
  for (const entry of offsets) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
  const response = await send(TxnOffsetCommit, {
    transactionalId,
    groupId,
    producerId: identity.producerId,
    producerEpoch: identity.producerEpoch,
    topics: [...byTopic].map(([name, list]) => ({
      name,
      partitions: list.map((entry) => ({
        partitionIndex: entry.partition,
        committedOffset: entry.offset,
        committedLeaderEpoch: -1,
        committedMetadata: entry.metadata ?? null,
      })),
    })),
  });
  for (const topic of response.topics) {
    for (const partition of topic.partitions) {
      if (partition.errorCode !== ErrorCode.NONE)
        throw errorForCode(
          partition.errorCode,
          `Committing ${topic.name}-${partition.partitionIndex} for group "${groupId}" in transaction "${transactionalId}".`,
        );
    }
  }
}

/** Commits or aborts the ongoing transaction; the coordinator answers once markers are written. */
export async function endTransaction(
  send: CoordinatorSend,
  transactionalId: string,
  identity: ProducerIdentity,
  commit: boolean,
): Promise<void> {
  const response = await send(EndTxn, {
    transactionalId,
    producerId: identity.producerId,
    producerEpoch: identity.producerEpoch,
    committed: commit,
  });
  if (response.errorCode !== ErrorCode.NONE)
    throw errorForCode(
      response.errorCode,
      `${commit ? 'Committing' : 'Aborting'} transaction "${transactionalId}".`,
    );
}
